package dev.mnemo;

/**
 * What one {@link Maintenance#retain} pass did.
 *
 * @param examined current records judged
 * @param expired records expired (their transaction time ended: gone from current recall, still in
 *     {@code known_at} and history)
 * @param turnsDeleted turns deleted from the turn log because they are older than the turn policy
 *     and no record names them any more
 */
public record RetentionReport(long examined, long expired, long turnsDeleted) {}
