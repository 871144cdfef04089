package io.sluice.verticles.rls;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitConfig;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitPolicy;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitReplace;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitUnit;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rate limit config an xDS server pushes: one {@code RateLimitConfig} resource per domain,
 * turned into the YAML a config file would hold and read by {@link RlsConfigReader}, so that a
 * pushed config is refused for exactly what a file is refused for, with the same messages
 * (envoyproxy/ratelimit converts its resources to its YAML model the same way). Each resource is
 * one "file", named {@code xds resource '<name>'}; its line numbers are those of the resource
 * written as YAML, its field paths those of the file it would be.
 */
public final class XdsRateLimitConfigs {

  public static final String TYPE_URL = "type.googleapis.com/ratelimit.config.ratelimit.v3.RateLimitConfig";

  private final List<String> problems = new ArrayList<>();

  private XdsRateLimitConfigs() {
  }

  /** Every resource of one pushed version, read as one config: all of them are in force, or none. */
  public static RlsConfig read(List<Any> resources) throws RlsConfigException {
    return read(resources, false);
  }

  /**
   * As {@link #read(List)}, with several resources of one domain merged when asked, as files are
   * (envoyproxy/ratelimit's MERGE_DOMAIN_CONFIG applies to its xDS configs too).
   */
  public static RlsConfig read(List<Any> resources, boolean mergeDomains) throws RlsConfigException {
    XdsRateLimitConfigs reader = new XdsRateLimitConfigs();
    Map<String, String> texts = new LinkedHashMap<>();
    for (int i = 0; i < resources.size(); i++) {
      RateLimitConfig config = reader.unpack(resources.get(i), i);
      if (config == null) {
        continue;
      }
      String name = "xds resource '" + (config.getName().isEmpty() ? "#" + i : config.getName()) + "'";
      if (texts.containsKey(name)) {
        reader.problems.add(name + ": two resources have this name (each domain's resource has its own)");
        continue;
      }
      reader.unknownFields(config, name);
      texts.put(name, yaml(config));
    }
    if (!reader.problems.isEmpty()) {
      throw new RlsConfigException(reader.problems);
    }
    return RlsConfigReader.parse(texts, mergeDomains);
  }

  private RateLimitConfig unpack(Any resource, int index) {
    if (!TYPE_URL.equals(resource.getTypeUrl())) {
      problems.add("xds resource #" + index + ": a " + resource.getTypeUrl() + ", not a " + TYPE_URL);
      return null;
    }
    try {
      return resource.unpack(RateLimitConfig.class);
    } catch (InvalidProtocolBufferException notOne) {
      problems.add("xds resource #" + index + ": not a RateLimitConfig: " + notOne.getMessage());
      return null;
    }
  }

  /**
   * A field these protos leave out (a descriptor's metadata, a newer field) is refused, as an
   * unknown field of a file is: a limit must not silently lose part of its meaning.
   */
  private void unknownFields(Message message, String at) {
    for (int number : message.getUnknownFields().asMap().keySet()) {
      problems.add(at + ": " + message.getDescriptorForType().getName() + " field " + number
          + " is not supported by Sluice");
    }
    for (Map.Entry<com.google.protobuf.Descriptors.FieldDescriptor, Object> field : message.getAllFields().entrySet()) {
      if (field.getKey().getJavaType() != com.google.protobuf.Descriptors.FieldDescriptor.JavaType.MESSAGE) {
        continue;
      }
      if (field.getValue() instanceof List<?> items) {
        for (int i = 0; i < items.size(); i++) {
          unknownFields((Message) items.get(i), at + ": " + field.getKey().getName() + "[" + i + "]");
        }
      } else {
        unknownFields((Message) field.getValue(), at + ": " + field.getKey().getName());
      }
    }
  }

  private static String yaml(RateLimitConfig config) {
    Map<String, Object> file = new LinkedHashMap<>();
    file.put("domain", config.getDomain());
    file.put("descriptors", descriptors(config.getDescriptorsList()));
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    return new Yaml(options).dump(file);
  }

  private static List<Map<String, Object>> descriptors(List<RateLimitDescriptor> descriptors) {
    List<Map<String, Object>> level = new ArrayList<>();
    for (RateLimitDescriptor descriptor : descriptors) {
      // proto3 cannot tell an empty text or a false from one left out: only what is set is written.
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("key", descriptor.getKey());
      if (!descriptor.getValue().isEmpty()) {
        fields.put("value", descriptor.getValue());
      }
      if (descriptor.hasRateLimit()) {
        fields.put("rate_limit", limit(descriptor.getRateLimit()));
      }
      if (descriptor.getShadowMode()) {
        fields.put("shadow_mode", true);
      }
      if (descriptor.getDetailedMetric()) {
        fields.put("detailed_metric", true);
      }
      if (descriptor.getQuotaMode()) {
        fields.put("quota_mode", true);
      }
      if (descriptor.getDescriptorsCount() > 0) {
        fields.put("descriptors", descriptors(descriptor.getDescriptorsList()));
      }
      level.add(fields);
    }
    return level;
  }

  /**
   * An unlimited policy keeps a unit or a count only when one is set, so that the reader refuses
   * it as it refuses {@code unlimited: true} with a {@code unit:}; any other has both, and an
   * UNKNOWN unit is refused by name.
   */
  private static Map<String, Object> limit(RateLimitPolicy policy) {
    Map<String, Object> fields = new LinkedHashMap<>();
    if (!policy.getName().isEmpty()) {
      fields.put("name", policy.getName());
    }
    if (policy.getUnlimited()) {
      fields.put("unlimited", true);
    }
    if (!policy.getUnlimited() || policy.getUnit() != RateLimitUnit.UNKNOWN) {
      fields.put("unit", policy.getUnit() == RateLimitUnit.UNRECOGNIZED
          ? "unit number " + policy.getUnitValue() : policy.getUnit().name().toLowerCase(Locale.ROOT));
    }
    if (!policy.getUnlimited() || policy.getRequestsPerUnit() != 0) {
      fields.put("requests_per_unit", Integer.toUnsignedLong(policy.getRequestsPerUnit()));
    }
    if (policy.getReplacesCount() > 0) {
      List<Map<String, Object>> replaces = new ArrayList<>();
      for (RateLimitReplace replace : policy.getReplacesList()) {
        replaces.add(Map.of("name", replace.getName()));
      }
      fields.put("replaces", replaces);
    }
    return fields;
  }
}
