/**
 * Names found by Apache OpenNLP's English part-of-speech model instead of by capital letters
 * ({@link dev.mnemo.nlp.OpenNlpEntities}), for the write path's entity keys.
 */
package dev.mnemo.nlp;
