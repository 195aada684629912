package dev.mnemo.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Focus;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.UsedRecords;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.MemoryJson;
import dev.mnemo.json.RecordJson;
import dev.mnemo.json.RequestJson;
import dev.mnemo.json.ResultJson;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tool handlers, shared by both transports: check the arguments, find the caller's {@link
 * MemoryAccess}, call the engine, answer in JSON. Every failure becomes a tool result with {@code
 * isError: true} (never a protocol error), so that the model reads the message and can fix its
 * call; this is the one place where Mnemo's exceptions map to MCP.
 *
 * <p>Results carry the JSON twice, as the MCP specification asks of tools with structured output:
 * as {@code structuredContent} and serialized in one text content block. Thread-safe.
 */
final class MemoryTools {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryTools.class);
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  /** Fields of a selected record that a recall returns: enough to cite, date and forget it. */
  private static final List<String> RECALLED_FIELDS =
      List.of(
          "id",
          "text",
          "score",
          "relevance",
          "match",
          "category",
          "scope",
          "fact_key",
          "valid_from",
          "valid_to",
          "recorded_at",
          "conflicts_with");

  static final String EMPTY_RECALL_NOTE =
      "No stored memory is relevant to this query. That is a valid answer: "
          + "reply without memories and do not invent any.";

  private final ToolCatalog catalog;
  private final Function<McpTransportContext, MemoryAccess> accessFor;
  private final AtomicInteger running = new AtomicInteger();

  /** Thrown when the caller has no memory access; its detail is logged, never shown. */
  static final class NoAccess extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoAccess(String message) {
      super(message);
    }
  }

  private MemoryTools(ToolCatalog catalog, Function<McpTransportContext, MemoryAccess> accessFor) {
    this.catalog = catalog;
    this.accessFor = accessFor;
  }

  /**
   * Builds the server on a transport's specification: the tools of the catalog, the instructions,
   * and no SDK input validation (see {@link Arguments}).
   *
   * @param accessFor the caller's access from the transport context of the request; throws {@link
   *     NoAccess} (or returns null) when there is none
   */
  static Served serve(
      McpServer.SyncSpecification<?> spec,
      ToolCatalog catalog,
      Function<McpTransportContext, MemoryAccess> accessFor) {
    MemoryTools tools = new MemoryTools(catalog, accessFor);
    List<SyncToolSpecification> specs = new ArrayList<>();
    for (McpSchema.Tool tool : catalog.tools()) {
      specs.add(
          SyncToolSpecification.builder()
              .tool(tool)
              .callHandler((exchange, request) -> tools.call(tool.name(), exchange, request))
              .build());
    }
    McpSyncServer server =
        spec.serverInfo("mnemo", ToolCatalog.version())
            .instructions(catalog.instructions())
            .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
            .validateToolInputs(false)
            .tools(specs)
            .build();
    return new Served(server, tools);
  }

  /** A built server and its tools, to wait for running calls before the engine closes. */
  record Served(McpSyncServer server, MemoryTools tools) {
    /**
     * Closes the server's sessions, then waits up to {@code grace} for tool calls still running.
     */
    void close(Duration grace) {
      server.closeGracefully();
      tools.awaitIdle(grace);
    }
  }

  private void awaitIdle(Duration grace) {
    long deadline = System.nanoTime() + grace.toNanos();
    while (running.get() > 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private CallToolResult call(
      String tool, McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    running.incrementAndGet();
    try {
      ObjectNode args = catalog.check(tool, request.arguments());
      MemoryAccess access = access(exchange.transportContext());
      String owner = args.get("owner").asText();
      args.put("owner", access.storedOwner(owner));
      Mnemo mnemo = access.mnemo();
      ObjectNode out =
          switch (tool) {
            case ToolCatalog.REMEMBER -> remember(mnemo, args, owner);
            case ToolCatalog.RECALL -> recall(mnemo, args, owner, access.principals());
            case ToolCatalog.HISTORY -> history(mnemo, args, owner);
            case ToolCatalog.FORGET -> forget(mnemo, args, owner);
            case ToolCatalog.MARK_USED -> markUsed(mnemo, args, owner);
            default -> throw new IllegalStateException("no handler for tool " + tool);
          };
      return success(out);
    } catch (InvalidRequestException e) {
      return invalid(e);
    } catch (NoAccess e) {
      LOG.warn("MCP {} refused: {}", tool, e.getMessage());
      return failure("no_access", "This caller has no memory access; nothing was read or changed.");
    } catch (MnemoException e) {
      if (e.retriable()) {
        LOG.warn("MCP {} failed, retriable: {}", tool, e.getMessage());
        return failure("retriable", "Temporarily failed, try again shortly: " + e.getMessage());
      }
      LOG.error("MCP {} failed", tool, e);
      return failure("failed", "Failed: " + e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("MCP {} failed unexpectedly", tool, e);
      return failure(
          "internal",
          "Internal error (" + e.getClass().getSimpleName() + "); the server log has the details.");
    } finally {
      running.decrementAndGet();
    }
  }

  private MemoryAccess access(McpTransportContext context) {
    MemoryAccess access;
    try {
      access = accessFor.apply(context == null ? McpTransportContext.EMPTY : context);
    } catch (NoAccess e) {
      throw e;
    } catch (RuntimeException e) {
      throw new NoAccess("the resolver failed: " + e);
    }
    if (access == null) throw new NoAccess("the resolver found no access");
    return access;
  }

  // ---- the tools ------------------------------------------------------------------------------

  private static ObjectNode remember(Mnemo mnemo, ObjectNode args, String owner) {
    MemoryRecord r = mnemo.remember(MemoryJson.read(args, ""));
    return shown(RecordJson.write(r, false), owner);
  }

  /**
   * The recall request of the tool's arguments. Without a {@code focus} argument, the focus is
   * built from the query by rule ({@link Focus#fromMessage}): a model often passes the user's whole
   * message, whose chatter would otherwise steer the search.
   */
  static RecallRequest recallRequest(ObjectNode args) {
    RecallRequest request = RequestJson.read(args, "");
    if (!request.focus().isEmpty()) return request;
    return request.toBuilder().focus(Focus.fromMessage(request.query())).build();
  }

  private static ObjectNode recall(
      Mnemo mnemo, ObjectNode args, String owner, java.util.Set<String> principals) {
    RecallResult r = mnemo.recall(recallRequest(args).toBuilder().principals(principals).build());
    ObjectNode full = ResultJson.write(r);
    ObjectNode out = JsonCodec.object();
    out.put("owner", owner);
    out.put("block", r.rendered());
    ArrayNode ids = out.putArray("ids");
    r.ids().forEach(ids::add);
    ArrayNode records = out.putArray("records");
    for (JsonNode s : full.get("selected")) {
      ObjectNode c = records.addObject();
      for (String f : RECALLED_FIELDS) {
        if (s.has(f) && !s.get(f).isNull()) c.set(f, s.get(f));
      }
    }
    out.set("withheld", full.get("withheld"));
    if (r.selected().isEmpty()) out.put("note", EMPTY_RECALL_NOTE);
    if (full.has("trace")) out.set("trace", shown((ObjectNode) full.get("trace"), owner));
    return out;
  }

  private static ObjectNode history(Mnemo mnemo, ObjectNode args, String owner) {
    String factKey = args.get("fact_key").asText();
    List<MemoryRecord> versions = mnemo.history(args.get("owner").asText(), factKey);
    ObjectNode out = JsonCodec.object();
    out.put("owner", owner);
    out.put("fact_key", factKey);
    ArrayNode a = out.putArray("versions");
    for (MemoryRecord r : versions) a.add(shown(RecordJson.write(r, false), owner));
    if (versions.isEmpty())
      out.put("note", "No memory of this owner was stored under fact_key '" + factKey + "'.");
    return out;
  }

  private static ObjectNode forget(Mnemo mnemo, ObjectNode args, String owner) {
    String id = args.has("id") ? args.get("id").asText() : null;
    JsonNode confirm = args.get("confirm_all");
    boolean all = confirm != null && confirm.asBoolean();
    if (id != null && all) {
      throw new InvalidRequestException(
          "confirm_all",
          true,
          "give either id (to delete one memory) or "
              + "confirm_all=true (to delete every memory of the owner), not both");
    }
    if (id == null && !all) {
      throw new InvalidRequestException(
          "confirm_all",
          confirm == null ? null : false,
          "confirm_all must be true to "
              + "delete every memory of owner '"
              + owner
              + "' (irreversible); to delete one memory, give its id instead");
    }
    String stored = args.get("owner").asText();
    int deleted = id != null ? mnemo.forget(stored, id) : mnemo.forget(stored);
    ObjectNode out = JsonCodec.object();
    out.put("owner", owner);
    if (id != null) out.put("id", id);
    out.put("deleted", deleted);
    return out;
  }

  /**
   * Usage feedback: the ids as given, or with {@code answer} those of them whose record the answer
   * used ({@link UsedRecords}); then {@link Mnemo#markUsed}.
   */
  private static ObjectNode markUsed(Mnemo mnemo, ObjectNode args, String owner) {
    String stored = args.get("owner").asText();
    List<String> ids = new ArrayList<>();
    args.get("ids").forEach(i -> ids.add(i.asText()));
    List<String> used = ids;
    if (args.has("answer")) {
      List<MemoryRecord> records =
          ids.stream()
              .distinct()
              .map(id -> mnemo.get(stored, id))
              .flatMap(java.util.Optional::stream)
              .toList();
      used =
          UsedRecords.in(
              args.has("query") ? args.get("query").asText() : null,
              args.get("answer").asText(),
              records);
    }
    int updated = used.isEmpty() ? 0 : mnemo.markUsed(stored, used);
    ObjectNode out = JsonCodec.object();
    out.put("owner", owner);
    ArrayNode marked = out.putArray("used");
    used.stream().distinct().forEach(marked::add);
    out.put("updated", updated);
    return out;
  }

  // ---- results --------------------------------------------------------------------------------

  /**
   * The caller sees the owner it named, never the stored (possibly namespaced) id; null fields are
   * left out because every token of a result lands in a model's context.
   */
  private static ObjectNode shown(ObjectNode n, String owner) {
    if (n.has("owner")) n.put("owner", owner);
    List<String> nulls = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : n.properties()) {
      if (e.getValue().isNull()) nulls.add(e.getKey());
    }
    n.remove(nulls);
    return n;
  }

  private static CallToolResult success(ObjectNode out) {
    return CallToolResult.builder()
        .addTextContent(json(out))
        .structuredContent(JsonCodec.convert(out, MAP))
        .isError(false)
        .build();
  }

  private static CallToolResult invalid(InvalidRequestException e) {
    ObjectNode out = JsonCodec.object();
    out.put("error", "invalid_arguments");
    String message = "Invalid arguments, nothing was changed: " + e.getMessage();
    out.put("message", message);
    ArrayNode v = out.putArray("violations");
    for (InvalidRequestException.Violation x : e.violations()) {
      ObjectNode o = v.addObject();
      o.put("field", x.field());
      o.put("value", x.value() == null ? null : String.valueOf(x.value()));
      o.put("message", x.message());
    }
    return error(message, out);
  }

  private static CallToolResult failure(String code, String message) {
    ObjectNode out = JsonCodec.object();
    out.put("error", code);
    out.put("message", message);
    return error(message, out);
  }

  /** The text block is the plain message: it is what most clients show the model. */
  private static CallToolResult error(String message, ObjectNode out) {
    return CallToolResult.builder()
        .addTextContent(message)
        .structuredContent(JsonCodec.convert(out, MAP))
        .isError(true)
        .build();
  }

  private static String json(JsonNode n) {
    try {
      return JsonCodec.WRITER.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
