package dev.mnemo.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForwardingMemoryStoreTest {

  /** Every instance method of the interface, default methods included. */
  private static List<Method> storeMethods() {
    return Arrays.stream(MemoryStore.class.getMethods())
        .filter(m -> !Modifier.isStatic(m.getModifiers()))
        .toList();
  }

  @Test
  void everyMethodOfTheInterfaceIsOverridden() throws Exception {
    List<String> missing = new ArrayList<>();
    for (Method m : storeMethods()) {
      try {
        ForwardingMemoryStore.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
      } catch (NoSuchMethodException e) {
        missing.add(m.toString());
      }
    }
    assertThat(missing).as("MemoryStore methods ForwardingMemoryStore does not forward").isEmpty();
  }

  @Test
  void everyCallReachesTheDelegateWithItsArguments() throws Exception {
    List<String> seen = new ArrayList<>();
    MemoryStore delegate =
        (MemoryStore)
            Proxy.newProxyInstance(
                MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class},
                (proxy, method, args) -> {
                  seen.add(method.getName() + Arrays.toString(args == null ? new Object[0] : args));
                  Class<?> r = method.getReturnType();
                  if (r == long.class) return 42L;
                  if (r == int.class) return 7;
                  return r == String.class ? "state-1" : null;
                });
    MemoryStore forwarding = new ForwardingMemoryStore(delegate) {};
    for (Method m : storeMethods()) {
      seen.clear();
      Object[] args = new Object[m.getParameterCount()];
      for (int i = 0; i < args.length; i++) {
        Class<?> p = m.getParameterTypes()[i];
        args[i] = p == int.class ? 3 : p == String.class ? "arg" + i : null;
      }
      Object result = m.invoke(forwarding, args);
      assertThat(seen).as(m.toString()).containsExactly(m.getName() + Arrays.toString(args));
      if (m.getReturnType() == long.class) assertThat(result).isEqualTo(42L);
      if (m.getReturnType() == int.class) assertThat(result).isEqualTo(7);
      if (m.getReturnType() == String.class) assertThat(result).isEqualTo("state-1");
    }
  }
}
