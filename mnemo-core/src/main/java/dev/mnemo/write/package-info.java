/**
 * The write path's built-in, offline rules: {@link dev.mnemo.write.OfflineExtractor} (which turns
 * become memories) and {@link dev.mnemo.write.RuleConsolidator} (how a candidate meets the owner's
 * existing records). Both are the defaults of {@link dev.mnemo.Mnemo.Builder}; an LLM-backed
 * extractor or consolidator replaces them through the same SPIs. See {@code docs/write-path.md}.
 */
package dev.mnemo.write;
