package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.json.JsonCodec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvalCommandTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldOut;
  private PrintStream oldErr;

  /** Two questions in the LongMemEval format, one of them an abstention question. */
  private static final String QUESTIONS =
      """
      [{"question_id": "q1", "question_type": "single-session-user", "question": "What is my cat called?",
        "answer": "Miso", "question_date": "2024/05/01 (Wed) 10:00", "answer_session_ids": ["s2"],
        "haystack_session_ids": ["s1", "s2"], "haystack_dates": ["2024/01/02 (Tue) 09:00", "2024/02/03 (Sat) 18:00"],
        "haystack_sessions": [
          [{"role": "user", "content": "How long do I boil an egg?"}, {"role": "assistant", "content": "Nine minutes."}],
          [{"role": "user", "content": "My cat Miso knocked over a plant.", "has_answer": true},
           {"role": "assistant", "content": "Cats love to push things off shelves."}]]},
       {"question_id": "q2_abs", "question_type": "multi-session", "question": "What is my dog called?",
        "answer": "unknown", "question_date": "2024/05/01 (Wed) 10:00", "answer_session_ids": ["s1"],
        "haystack_session_ids": ["s1"], "haystack_dates": ["2024/01/02 (Tue) 09:00"],
        "haystack_sessions": [[{"role": "user", "content": "I walked past a dog park."}]]}]
      """;

  @BeforeEach
  void capture() {
    oldOut = System.out;
    oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(oldOut);
    System.setErr(oldErr);
  }

  private int run(String... args) {
    out.reset();
    err.reset();
    return Main.run(args);
  }

  @Test
  void longmemeval_writesTheMetricsJson_andAnHtmlReport_andShowsProgress() throws Exception {
    Path file = Files.writeString(dir.resolve("lme.json"), QUESTIONS);
    Path json = dir.resolve("out.json");
    Path html = dir.resolve("out.html");
    assertThat(
            run(
                "eval",
                "longmemeval",
                file.toString(),
                "--embedder",
                "none",
                "--rankings",
                "bm25,full",
                "--k-max",
                "5",
                "--out",
                json.toString(),
                "--html",
                html.toString()))
        .isZero();
    assertThat(err.toString()).contains("[1/2] q1 single-session-user: 4 memories written");
    assertThat(out.toString()).contains("LongMemEval retrieval: 2 questions", "turnR@5");
    JsonNode p = JsonCodec.read(json).path("policies");
    assertThat(p.fieldNames()).toIterable().containsExactly("bm25", "full");
    assertThat(p.path("bm25").path("questions").asInt()).isEqualTo(1);
    // the assistant's reply ("Cats love...") ties with the evidence once BM25 reads each turn's
    // context
    assertThat(p.path("bm25").path("turn_recall@5").asDouble()).isEqualTo(1.0);
    assertThat(p.path("bm25").path("recall@5").asDouble()).isEqualTo(1.0);
    assertThat(p.path("bm25").path("abstention").path("questions").asInt()).isEqualTo(1);
    assertThat(Files.readString(html))
        .startsWith("<!DOCTYPE html>")
        .contains("data-series=\"bm25\"");
  }

  @Test
  void check_exitsWith1WhenAMetricDropped_0WhenNone_2WhenTheExpectationIsMalformed()
      throws Exception {
    Path report =
        Files.writeString(
            dir.resolve("r.json"), "{\"policies\": {\"full\": {\"recall@10\": 0.80}}}");
    Path ok =
        Files.writeString(
            dir.resolve("ok.json"),
            "{\"tolerance\": 0.01, \"metrics\": {\"/policies/full/recall@10\": 0.805}}");
    Path drop =
        Files.writeString(
            dir.resolve("drop.json"),
            "{\"tolerance\": 0.01, \"metrics\": {\"/policies/full/recall@10\": 0.85}}");
    Path bad = Files.writeString(dir.resolve("bad.json"), "{\"metrics\": {}}");
    assertThat(run("eval", "check", "--expect", ok.toString(), "--actual", report.toString()))
        .isZero();
    assertThat(out.toString()).contains("PASS");
    assertThat(run("eval", "check", "--expect", drop.toString(), "--actual", report.toString()))
        .isEqualTo(1);
    assertThat(out.toString())
        .contains("/policies/full/recall@10", "-0.0500", "WORSE (dropped)", "FAIL: 1 of 1");
    assertThat(run("eval", "check", "--expect", bad.toString(), "--actual", report.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("needs \"metrics\"");
  }

  /** One scenario: a correction, asked now and as of before it. */
  private static final String SCENARIO =
      "{\"id\": \"s1\", \"split\": \"dev\", \"writes\": ["
          + "{\"id\": \"e1\", \"owner\": \"u\", \"recorded_at\": \"2026-03-01T10:00:00Z\", \"text\": \"Maya codes in Vim.\", "
          + "\"fact_key\": \"editor\"}, {\"id\": \"e2\", \"owner\": \"u\", \"recorded_at\": \"2026-06-02T09:00:00Z\", "
          + "\"text\": \"Maya switched from Vim to Emacs.\", \"fact_key\": \"editor\"}], \"queries\": [{\"id\": \"q1\", "
          + "\"owner\": \"u\", \"asked_at\": \"2026-07-01T00:00:00Z\", \"text\": \"Which editor does Maya use, Vim or Emacs?\", "
          + "\"expect\": [\"e2\"], \"forbid\": [\"e1\"]}]}\n";

  @Test
  void scenariosAndAblations_writeMetricsJson_andHtmlReports() throws Exception {
    Path file = Files.writeString(dir.resolve("s.jsonl"), SCENARIO);
    Path metrics = dir.resolve("m.json");
    Path html = dir.resolve("s.html");
    assertThat(
            run(
                "eval",
                "scenarios",
                file.toString(),
                "--embedder",
                "none",
                "--metrics",
                metrics.toString(),
                "--html",
                html.toString()))
        .isZero();
    assertThat(JsonCodec.read(metrics).path("dev").path("full").path("queries").asInt())
        .isEqualTo(1);
    assertThat(Files.readString(html))
        .contains("data-series=\"full\"", "data-series=\"unfiltered\"");

    Path json = dir.resolve("a.json");
    Path page = dir.resolve("a.html");
    assertThat(
            run(
                "eval",
                "ablations",
                file.toString(),
                "--embedder",
                "none",
                "--variants",
                "bm25,full",
                "--out",
                json.toString(),
                "--html",
                page.toString()))
        .isZero();
    assertThat(JsonCodec.read(json).path("splits").path("dev").fieldNames())
        .toIterable()
        .containsExactly("bm25", "full");
    assertThat(Files.readString(page)).contains("data-series=\"bm25\"", "Selection latency (ms)");
    assertThat(out.toString()).contains("report: " + page);
  }
}
