package dev.mnemo.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueryPersonTest {
  @Test
  void firstPersonPointsAtTheUser_secondPersonAtTheAssistant() {
    assertThat(QueryPerson.role("What kitchen appliance did I buy 10 days ago?")).isEqualTo("user");
    assertThat(QueryPerson.role("How many hours have I spent on my sculpture?")).isEqualTo("user");
    assertThat(QueryPerson.role("Which hotel did you recommend for Miami?")).isEqualTo("assistant");
    assertThat(QueryPerson.role("What was the move you made after Kg2?")).isEqualTo("assistant");
  }

  @Test
  void requestFramesDoNotCountAsSecondPerson() {
    assertThat(QueryPerson.role("Can you suggest some accessories for my phone?"))
        .isEqualTo("user");
    assertThat(QueryPerson.role("Could you tell me where I parked?")).isEqualTo("user");
    assertThat(QueryPerson.role("Do you remember what show I used as an example?"))
        .isEqualTo("user");
  }

  @Test
  void bothPersonsOrNeitherPointAtNoRole() {
    assertThat(QueryPerson.role("Remind me what you said about tomato juice")).isNull();
    assertThat(QueryPerson.role("What did Caroline research?")).isNull();
    assertThat(QueryPerson.role("")).isNull();
    assertThat(QueryPerson.role(null)).isNull();
  }

  @Test
  void contractionsAndCurlyApostrophesCount() {
    assertThat(QueryPerson.role("I’m looking for the store I’ve mentioned")).isEqualTo("user");
    assertThat(QueryPerson.role("What's the book you've suggested?")).isEqualTo("assistant");
  }
}
