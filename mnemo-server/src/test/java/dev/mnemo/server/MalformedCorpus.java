package dev.mnemo.server;

import java.util.List;

/**
 * Bodies no route may answer with a 5xx or act on: broken JSON, wrong shapes, wrong types, values
 * out of range, extreme dates, unsafe owners, oversized fields. Sent to every body-taking route.
 */
final class MalformedCorpus {
  private MalformedCorpus() {}

  private static final String FAR = "-999999999-01-01T00:00:00Z";

  static final List<String> BODIES =
      List.of(
          "",
          " ",
          "{",
          "}",
          "[]",
          "null",
          "true",
          "42",
          "\"text\"",
          "{\"owner\":\"o\",\"owner\":\"p\",\"text\":\"dup\"}",
          "{\"owner\":\"o\",\"text\":\"x\"} trailing",
          "{\"owner\":\"o\",\"text\":\"x\"}{}",
          "{'owner':'o'}",
          "{\"owner\":\"o\",\"text\":\"x\",}",
          "{\"owner\":1,\"text\":\"x\"}",
          "{\"owner\":null,\"text\":null}",
          "{\"owner\":[],\"text\":{}}",
          "{\"owner\":\"\",\"text\":\"\"}",
          "{\"owner\":\"   \",\"text\":\"x\"}",
          "{\"owner\":\"a\\u0000b\",\"text\":\"x\"}",
          "{\"owner\":\"a\\u202Eb\",\"text\":\"x\"}",
          "{\"owner\":\"\\ud800\",\"text\":\"x\"}",
          "{\"owner\":\"" + "o".repeat(10_000) + "\",\"text\":\"x\"}",
          "{\"owner\":\"o\",\"text\":\"x\",\"unknown_field\":1}",
          "{\"owner\":\"o\",\"text\":\"x\",\"valid_from\":\"" + FAR + "\"}",
          "{\"owner\":\"o\",\"text\":\"x\",\"valid_from\":\"not a date\"}",
          "{\"owner\":\"o\",\"text\":\"x\",\"valid_to\":\"+999999999-12-31T23:59:59.999999999Z\"}",
          "{\"owner\":\"o\",\"text\":\"x\",\"recorded_at\":\"9999-12-31T00:00:00Z\"}",
          "{\"owner\":\"o\",\"text\":\"x\",\"importance\":1e400}",
          "{\"owner\":\"o\",\"text\":\"x\",\"importance\":-1}",
          "{\"owner\":\"o\",\"text\":\"x\",\"importance\":\"high\"}",
          "{\"owner\":\"o\",\"text\":\"x\",\"seq\":-5}",
          "{\"owner\":\"o\",\"text\":\"x\",\"category\":\"nonsense\"}",
          "{\"owner\":\"o\",\"text\":\"x\",\"metadata\":{\"k\":1}}",
          "{\"owner\":\"o\",\"text\":\"x\",\"metadata\":{\"k\":\"" + "v".repeat(40_000) + "\"}}",
          "{\"owner\":\"o\",\"text\":\"x\",\"fact_key\":\"" + "k".repeat(40_000) + "\"}",
          "{\"owner\":\"o\",\"text\":\"" + "t".repeat(9_000) + "\",\"mode\":\"nonsense\"}",
          "{\"owner\":\"o\",\"text\":\"x\",\"k\":0,\"mode\":\"valid_at\"}",
          "{\"owner\":\"o\",\"text\":\"x\",\"k\":99999999999}",
          "{\"owner\":\"o\",\"text\":\"x\",\"asked_at\":\""
              + FAR
              + "\",\"at\":\""
              + FAR
              + "\",\"mode\":\"known_at\"}",
          "{\"records\":\"not a list\"}",
          "{\"records\":[null]}",
          "{\"records\":[{\"owner\":\"o\",\"text\":\"ok\"},{\"owner\":\"o\",\"text\":\"x\",\"valid_from\":\""
              + FAR
              + "\"}]}",
          "{\"turns\":[{\"id\":\"t\",\"owner\":\"o\",\"role\":\"user\",\"text\":\"x\",\"at\":\""
              + FAR
              + "\"}]}",
          "{\"turns\":[{\"id\":\""
              + "i".repeat(40_000)
              + "\",\"owner\":\"o\",\"role\":\"user\",\"text\":\"x\"}]}",
          "{\"turns\":\"x\"}",
          "{\"ids\":\"x\"}",
          "{\"ids\":[1,2]}",
          "{\"a\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}");
}
