package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.eval.HtmlReport.Series;
import dev.mnemo.eval.LocomoRunner.Ranking;
import dev.mnemo.testkit.HashingEmbedder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class HtmlReportTest {

  /** Parses the page as XML: fails on anything not well-formed. */
  static Document parse(String html) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(false);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
    return f.newDocumentBuilder()
        .parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
  }

  static List<String> xpath(Document d, String expr) throws Exception {
    NodeList ns =
        (NodeList) XPathFactory.newInstance().newXPath().evaluate(expr, d, XPathConstants.NODESET);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < ns.getLength(); i++)
      out.add(
          ns.item(i).getNodeValue() != null
              ? ns.item(i).getNodeValue()
              : ns.item(i).getTextContent());
    return out;
  }

  @Test
  void render_isWellFormed_selfContained_andEscapesText() throws Exception {
    String html =
        new HtmlReport("R&D <report>")
            .paragraph("a < b & \"c\" 'd'\u0001")
            .table(List.of("policy", "recall"), List.of(List.of("full<1>", "0.9")))
            .lineChart(
                "recall@k",
                "k",
                "recall",
                List.of(
                    Series.of("full", new double[] {1, 5, 10}, new double[] {.2, .6, .9}),
                    Series.of(
                        "bm25 & co", new double[] {1, 5, 10}, new double[] {.1, Double.NaN, .8})),
                true,
                1)
            .barChart(
                "by type",
                "recall",
                List.of("a", "b"),
                List.of(Series.of("full", new double[] {0, 1}, new double[] {.5, .7})),
                1)
            .histogram(
                "latency",
                "ms",
                List.of(Series.of("full", new double[] {0, 1, 2}, new double[] {3, 4, 40})),
                10)
            .scatter(
                "tokens vs recall",
                "tokens",
                "recall",
                List.of(Series.of("full", new double[] {100, 900}, new double[] {.5, .8})),
                1)
            .render();
    Document d = parse(html);
    assertThat(xpath(d, "/html/head/title/text()")).containsExactly("R&D <report>");
    assertThat(xpath(d, "//figure/figcaption/text()"))
        .containsExactly("recall@k", "by type", "latency", "tokens vs recall");
    assertThat(xpath(d, "//svg")).hasSize(4);
    assertThat(xpath(d, "//g[@class='series']/@data-series"))
        .containsExactly("full", "bm25 & co", "full", "full", "full");
    // the NaN point is left out of its line: two markers, not three
    assertThat(xpath(d, "//g[@data-series='bm25 & co']/circle")).hasSize(2);
    assertThat(xpath(d, "//g[@data-series='full']/circle/title/text()"))
        .contains("full: k 10, recall 0.9");
    assertThat(xpath(d, "//table//td/text()")).containsExactly("full<1>", "0.9");
    // nothing is fetched: the only URIs are the XHTML and SVG namespace names
    assertThat(html.replaceAll("xmlns=\"[^\"]*\"", ""))
        .doesNotContain("<script", "http", "src=", "href=", "url(", "\u0001");
  }

  @Test
  void histogram_countsSamplesIntoCommonBins() throws Exception {
    Document d =
        parse(
            new HtmlReport("h")
                .histogram(
                    "lat",
                    "ms",
                    List.of(Series.of("a", new double[] {0, 0, 0, 0}, new double[] {1, 2, 3, 95})),
                    10)
                .render());
    // bins of 10 ms up to 100: three samples in the first, one in the last
    assertThat(xpath(d, "//g[@data-series='a']/rect/title/text()"))
        .containsExactly("a: 3 in [0, 10)", "a: 1 in [90, 100)");
  }

  @Test
  void anEmptyChart_saysSo_andBadShapesAreRefused() throws Exception {
    Document d =
        parse(
            new HtmlReport("e").lineChart("none", "k", "r", List.of(), false, Double.NaN).render());
    assertThat(xpath(d, "//svg/text/text()")).containsExactly("no data");
    assertThatThrownBy(() -> new HtmlReport("x").table(List.of("a", "b"), List.of(List.of("1"))))
        .hasMessage("a row must have 2 cells, had 1: [1]");
    assertThatThrownBy(
            () ->
                new HtmlReport("x")
                    .barChart(
                        "b",
                        "y",
                        List.of("a", "b"),
                        List.of(Series.of("s", new double[] {0}, new double[] {1})),
                        1))
        .hasMessage("series s must have one value per category (2), had 1");
  }

  @Test
  void niceNumbers() {
    assertThat(HtmlReport.niceCeil(0.93)).isEqualTo(1.0);
    assertThat(HtmlReport.niceCeil(137)).isEqualTo(150.0);
    assertThat(HtmlReport.ticks(0, 1)).containsExactly(0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0);
    assertThat(HtmlReport.num(0.8530)).isEqualTo("0.853");
    assertThat(HtmlReport.num(50)).isEqualTo("50");
  }

  @Test
  void longMemEvalReport_drawsEveryPolicyInEveryPlot(@TempDir Path dir) throws Exception {
    LongMemEvalReport r =
        new LongMemEvalRunner(
                TestEngines.lucene(new HashingEmbedder()),
                true,
                5,
                List.of(Ranking.FULL, Ranking.BM25),
                line -> {})
            .run(LongMemEvalLoader.load(LongMemEvalLoaderTest.TINY));
    Path file = dir.resolve("r.html");
    EvalHtml.longMemEval(r, "tiny.json").write(file);
    Document d = parse(Files.readString(file));
    assertThat(xpath(d, "//figure/figcaption/text()"))
        .containsExactly(
            "Session recall@k (all evidence sessions in the top k)",
                "Turn recall@k (all evidence turns in the top k)",
            "Turn recall@5 by question type", "Session recall@5 by question type",
            "Tokens of the top k turns against turn recall@k (k = [1, 3, 5])",
                "Recall latency (ms, query embedding included)");
    for (String figure : xpath(d, "//figure/figcaption/text()")) {
      assertThat(xpath(d, "//figure[figcaption='" + figure + "']//g[@class='series']/@data-series"))
          .as(figure)
          .containsExactly("full", "bm25");
    }
    assertThat(xpath(d, "//figure[2]//g[@data-series='bm25']/circle")).hasSize(3);
    assertThat(xpath(d, "//figure[3]//text/text()"))
        .contains("single-session-assistant", "single-session-user");
  }

  @Test
  void locomoAndScenarioReports_areWellFormed_withTheirSeries() throws Exception {
    LocomoReport lr =
        new LocomoRunner(TestEngines.lucene(new HashingEmbedder()), true, 5)
            .run(List.of(LocomoLoader.load(LocomoLoaderTest.DIR.resolve("tiny.json"))));
    Document d = parse(EvalHtml.locomo(lr, "tiny").render());
    assertThat(xpath(d, "//figure[1]//g[@class='series']/@data-series"))
        .containsExactly("full", "dense", "bm25", "full-rrf");
    assertThat(xpath(d, "//figure/figcaption/text()")).hasSize(3);

    ScenarioReport sr =
        new ScenarioRunner(TestEngines.lucene(new HashingEmbedder()))
            .run(List.of(ScenarioReaderTest.DEV));
    Document s = parse(EvalHtml.scenarios(sr, "dev.jsonl").render());
    assertThat(xpath(s, "//figure[1]//g[@class='series']/@data-series"))
        .containsExactly("none", "recent", "keyword", "full", "unfiltered");
    assertThat(xpath(s, "//figure/figcaption/text()")).contains("Selection latency (ms)");
  }
}
