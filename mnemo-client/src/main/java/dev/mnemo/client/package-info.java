/**
 * {@link dev.mnemo.client.MnemoClient}: the {@link dev.mnemo.Mnemo} interface over a Mnemo REST
 * server, with retries where repeating is harmless, time-outs, and the server's problems mapped to
 * {@link dev.mnemo.InvalidRequestException} and {@link dev.mnemo.client.MnemoRemoteException}.
 */
package dev.mnemo.client;
