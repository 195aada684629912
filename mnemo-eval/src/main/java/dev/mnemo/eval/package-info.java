/**
 * Evaluation: the scenario runner (memory histories with the records a correct engine must and must
 * not select, compared across retrieval policies at an equal budget) and the LoCoMo
 * evidence-recall runner.
 *
 * <p>Entry points: {@link dev.mnemo.eval.ScenarioRunner} with {@link dev.mnemo.eval.ScenarioReader},
 * and {@link dev.mnemo.eval.LocomoRunner} with {@link dev.mnemo.eval.LocomoLoader}. Both take a
 * factory that opens a fresh engine in a directory, so that the caller (CLI, tests) chooses the store,
 * embedder and tokenizer; neither depends on a store or embedder implementation.
 */
package dev.mnemo.eval;
