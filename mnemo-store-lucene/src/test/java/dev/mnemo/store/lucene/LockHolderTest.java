package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MnemoException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LockHolderTest {
  @TempDir Path dir;

  @Test
  void openingALockedStore_namesTheHoldingProcess_andWhatToDo() {
    LuceneMemoryStore held = LuceneMemoryStore.open(dir);
    try {
      assertThatThrownBy(() -> LuceneMemoryStore.open(dir))
          .isInstanceOf(MnemoException.class)
          .hasMessageContaining(
              "the store in " + dir + " is open in process " + ProcessHandle.current().pid())
          .hasMessageContaining("stop that one")
          .hasMessageContaining("choose another --data")
          .hasMessageContaining("do not delete write.lock");
    } finally {
      held.close();
    }
    assertThat(dir.resolve(LockHolder.FILE)).doesNotExist(); // cleared on close
    LuceneMemoryStore.open(dir).close(); // and the store opens again
  }

  @Test
  void aNoteOfAProcessThatIsGone_isNotNamed() throws Exception {
    Files.writeString(dir.resolve(LockHolder.FILE), "pid=999999999\nsince=x\ncommand=gone\n");
    assertThat(LockHolder.refusal(dir))
        .contains("another process (it left no note of its pid)")
        .doesNotContain("gone");
  }
}
