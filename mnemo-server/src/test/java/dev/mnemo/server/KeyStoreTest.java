package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyStoreTest {
  @TempDir Path dir;

  @Test
  void issuedKeys_areStoredOnlyAsHashes_andSurviveReopening() throws Exception {
    Path file = dir.resolve("keys.json");
    KeyStore ks = KeyStore.open(file, "env-admin-key-long-enough-0123456789");
    KeyStore.Issued a = ks.issue("acme", "bot");
    String stored = Files.readString(file);
    assertThat(stored)
        .doesNotContain(a.key())
        .doesNotContain(a.key().substring(19))
        .contains(a.entry().id());
    assertThat(Files.getPosixFilePermissions(file).toString())
        .isEqualTo("[OWNER_READ, OWNER_WRITE]");
    assertThat(Files.exists(dir.resolve("keys.json.tmp"))).isFalse();
    KeyStore again = KeyStore.open(file, "env-admin-key-long-enough-0123456789");
    assertThat(again.authenticate(a.key()))
        .hasValueSatisfying(p -> assertThat(p.tenant()).isEqualTo("acme"));
    assertThat(again.authenticate("env-admin-key-long-enough-0123456789"))
        .hasValueSatisfying(p -> assertThat(p.admin()).isTrue());
  }

  @Test
  void nearMisses_revokedKeys_andOtherFormats_areRefused() {
    KeyStore ks = KeyStore.open(dir.resolve("keys.json"), "admin-key-0123456789-0123456789");
    String k = ks.issue("acme", null).key();
    char last = k.charAt(k.length() - 1);
    assertThat(ks.authenticate(k.substring(0, k.length() - 1) + (last == 'A' ? 'B' : 'A')))
        .isEmpty();
    assertThat(ks.authenticate(k + "x")).isEmpty();
    assertThat(ks.authenticate("")).isEmpty();
    assertThat(ks.authenticate(null)).isEmpty();
    assertThat(ks.authenticate("admin-key-0123456789-012345678")).isEmpty();
    String id = k.substring(6, 18);
    assertThat(ks.revoke("other", id)).isFalse();
    assertThat(ks.revoke("acme", id)).isTrue();
    assertThat(ks.authenticate(k)).isEmpty();
  }

  @Test
  void withoutAnAdminKey_oneIsGeneratedOnce_andAnEnvironmentKeyReplacesIt() {
    Path file = dir.resolve("keys.json");
    KeyStore first = KeyStore.open(file, null);
    String generated = first.generatedAdminKey().orElseThrow();
    assertThat(first.authenticate(generated))
        .hasValueSatisfying(p -> assertThat(p.admin()).isTrue());
    KeyStore second = KeyStore.open(file, null);
    assertThat(second.generatedAdminKey()).isEmpty();
    assertThat(second.authenticate(generated)).isPresent();
    KeyStore withEnv = KeyStore.open(file, "operator-chosen-admin-key-0123456789");
    assertThat(withEnv.authenticate(generated)).isEmpty();
  }

  @Test
  void aKeyFileOfANewerFormat_isRefusedWithTheVersion() throws Exception {
    Path file = dir.resolve("keys.json");
    Files.writeString(file, "{\"format\": 2, \"keys\": []}");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> KeyStore.open(file, "admin-key-0123456789-0123456789"))
        .isInstanceOf(dev.mnemo.MnemoException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("format version 2")
        .hasMessageContaining("reads format version 1");
  }
}
