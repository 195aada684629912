package dev.mnemo.eval;

import dev.mnemo.NewMemory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One scenario of a scenario file (see {@code docs/scenarios.md}): a memory history written in
 * order into a fresh store, and the queries asked of it.
 *
 * <p>Immutable. Built by {@link ScenarioReader}, which has checked that write ids are unique and
 * that every id a query expects or forbids names a write of this scenario.
 *
 * @param id the scenario id
 * @param split {@code dev} (free to tune on) or {@code heldout} (report only)
 * @param origin where it was read from, {@code file:line}, for messages
 * @param writes the memories to write, in order; each carries its write id as its first source id
 * @param queries the queries
 */
public record Scenario(
    String id, String split, String origin, List<NewMemory> writes, List<ScenarioQuery> queries) {

  public Scenario {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(split, "split");
    writes = List.copyOf(writes);
    queries = List.copyOf(queries);
  }

  /** The owner of each write, by write id. */
  public Map<String, String> ownerByWriteId() {
    Map<String, String> out = new HashMap<>();
    for (NewMemory m : writes) out.put(m.sources().get(0), m.owner());
    return out;
  }
}
