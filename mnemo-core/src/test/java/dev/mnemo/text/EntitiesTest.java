package dev.mnemo.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EntitiesTest {
  @Test
  void extract_keepsCapitalizedNamesAndTheirPhrases_notFunctionWords() {
    assertThat(Entities.extract("Which editor does Maya use in San Francisco?"))
        .containsExactlyInAnyOrder("maya", "san", "francisco", "san francisco");
  }

  @Test
  void queryKeys_areEveryContentWord() {
    assertThat(Entities.queryKeys("How many museums did Ana visit?"))
        .containsExactly("ana", "many", "museums", "visit");
  }

  @Test
  void nameKeys_ofACasedQuery_areItsNames_andOfALowerCaseQuery_everyContentWord() {
    assertThat(Entities.nameKeys("How many museums did Ana visit?")).containsExactly("ana");
    assertThat(Entities.nameKeys("how many museums did ana visit"))
        .containsExactly("many", "museums", "ana", "visit");
    assertThat(Entities.nameKeys("")).isEmpty();
    assertThat(Entities.nameKeys(null)).isEmpty();
  }
}
