/**
 * Spring Boot auto-configuration of Mnemo ({@link dev.mnemo.spring.boot.MnemoAutoConfiguration})
 * from the {@code mnemo.*} properties ({@link dev.mnemo.spring.boot.MnemoProperties}).
 */
package dev.mnemo.spring.boot;
