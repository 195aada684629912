package dev.mnemo.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.InvalidRequestException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The Mnemo-Principals header of a mounted path (MCP): the principals its recalls run with. */
class MountFilterPrincipalsTest {

  @Test
  void header_commaSeparatedLabels_areThePrincipals_noneWithoutIt() {
    assertThat(MountFilter.principals("team:payments, role:cfo ,person:ana"))
        .isEqualTo(Set.of("team:payments", "role:cfo", "person:ana"));
    assertThat(MountFilter.principals(null)).isEmpty();
    assertThat(MountFilter.principals(" ")).isEmpty();
  }

  @Test
  void header_malformedLabel_isRefusedNamingTheHeader() {
    assertThatThrownBy(() -> MountFilter.principals("team:payments, admin"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("Mnemo-Principals[1]");
  }
}
