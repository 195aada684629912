/**
 * Text helpers of the engine, with no model: words, stems and function words ({@link
 * dev.mnemo.text.Words}), names found by capital letters ({@link dev.mnemo.text.Entities}), the
 * person a question is about ({@link dev.mnemo.text.QueryPerson}) and the default token counter
 * ({@link dev.mnemo.text.JTokkitTokenizer}).
 */
package dev.mnemo.text;
