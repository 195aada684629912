/**
 * Evaluation: the scenario runner (memory histories with the records a correct engine must and must
 * not select, compared across retrieval policies at an equal budget), the generator of synthetic
 * histories, ablations of the read path, and the LoCoMo and LongMemEval evidence-recall runners.
 *
 * <p>Entry points: {@link dev.mnemo.eval.ScenarioRunner} with {@link
 * dev.mnemo.eval.ScenarioReader}; {@link dev.mnemo.eval.HistoryGenerator}, which writes scenario
 * files (seeded, a dev and a held-out split worded differently); {@link
 * dev.mnemo.eval.AblationRunner}, every {@link dev.mnemo.eval.Ablation} over the same scenarios or
 * LoCoMo conversations; and {@link dev.mnemo.eval.LocomoRunner} with {@link
 * dev.mnemo.eval.LocomoLoader}; {@link dev.mnemo.eval.LongMemEvalRunner} with {@link
 * dev.mnemo.eval.LongMemEvalLoader}. Around them: {@link dev.mnemo.eval.EvalHtml} (self-contained
 * HTML reports drawn by {@link dev.mnemo.eval.HtmlReport}), {@link dev.mnemo.eval.ExpectationCheck}
 * (a report against recorded expectations) and {@link dev.mnemo.eval.CachingEmbedder} (vectors kept
 * on disk across runs). The runners take a factory that opens a fresh engine in a directory, so
 * that the caller (CLI, tests) chooses the store, embedder and tokenizer; none depends on a store
 * or embedder implementation. Results and how to run them: {@code docs/evaluation.md}.
 *
 * <p>With a language model: {@link dev.mnemo.eval.AnswerEvaluator} over {@link
 * dev.mnemo.eval.AnswerSuites} (answers with and without memory, judged; counterfactual check;
 * leave-one-out utility), reported by {@link dev.mnemo.eval.AnswerReport}; {@link
 * dev.mnemo.eval.ExtractionCost} counts what LLM extraction sends. See {@code docs/llm.md}.
 */
package dev.mnemo.eval;
