/**
 * Time in queries: {@link dev.mnemo.time.TimeExpressions} finds expressions such as "last week" or
 * "in May 2023" in a user's query and resolves them to {@link dev.mnemo.time.TimeRange}s relative
 * to the moment the query was asked.
 */
package dev.mnemo.time;
