package io.sluice.verticles.rls;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;

import java.util.Map;

/**
 * The dynamic metadata of an answer, as envoyproxy/ratelimit's RESPONSE_DYNAMIC_METADATA writes it,
 * for Envoy to hand on to later filters and access logs: {@code domain}; {@code descriptors}, each
 * with its {@code entries} as {@code key=value} texts, its {@code limit} override (as text) and its
 * {@code hitsAddend} when set; the request's {@code hitsAddend} when not 0; and {@code metadata},
 * the configured {@code metadata} of every limit that passed, merged in request order (a field
 * already there is kept; two mappings under one field are merged the same way), left out when
 * empty.
 */
final class DynamicMetadata {

  private DynamicMetadata() {
  }

  /**
   * @param passed per descriptor, its limit when the descriptor was counted and not over it, else
   *               null
   */
  static Struct of(RateLimitRequest request, RateLimit[] passed) {
    Struct.Builder fields = Struct.newBuilder().putFields("domain", text(request.getDomain()));
    ListValue.Builder descriptors = ListValue.newBuilder();
    for (RateLimitDescriptor descriptor : request.getDescriptorsList()) {
      descriptors.addValues(Value.newBuilder().setStructValue(descriptor(descriptor)));
    }
    fields.putFields("descriptors", Value.newBuilder().setListValue(descriptors).build());
    if (request.getHitsAddend() != 0) {
      fields.putFields("hitsAddend", number(Integer.toUnsignedLong(request.getHitsAddend())));
    }
    Struct.Builder metadata = Struct.newBuilder();
    for (RateLimit limit : passed) {
      if (limit != null) {
        merge(metadata, limit.metadata());
      }
    }
    if (metadata.getFieldsCount() > 0) {
      fields.putFields("metadata", Value.newBuilder().setStructValue(metadata).build());
    }
    return fields.build();
  }

  private static Struct descriptor(RateLimitDescriptor descriptor) {
    ListValue.Builder entries = ListValue.newBuilder();
    descriptor.getEntriesList().forEach(entry -> entries.addValues(text(entry.getKey() + '=' + entry.getValue())));
    Struct.Builder fields = Struct.newBuilder().putFields("entries", Value.newBuilder().setListValue(entries).build());
    if (descriptor.hasLimit()) {
      // upstream writes the override with protobuf's text form
      fields.putFields("limit", text(descriptor.getLimit().toString().trim().replace('\n', ' ')));
    }
    if (descriptor.hasHitsAddend()) {
      fields.putFields("hitsAddend", number(descriptor.getHitsAddend().getValue()));
    }
    return fields.build();
  }

  /** Upstream's mergeMetadata: the first value of a field wins, and two mappings merge. */
  private static void merge(Struct.Builder into, Struct from) {
    for (Map.Entry<String, Value> field : from.getFieldsMap().entrySet()) {
      Value there = into.getFieldsMap().get(field.getKey());
      if (there == null) {
        into.putFields(field.getKey(), field.getValue());
      } else if (there.hasStructValue() && field.getValue().hasStructValue()) {
        Struct.Builder merged = there.getStructValue().toBuilder();
        merge(merged, field.getValue().getStructValue());
        into.putFields(field.getKey(), Value.newBuilder().setStructValue(merged).build());
      }
    }
  }

  private static Value text(String text) {
    return Value.newBuilder().setStringValue(text).build();
  }

  private static Value number(long number) {
    return Value.newBuilder().setNumberValue(number).build();
  }
}
