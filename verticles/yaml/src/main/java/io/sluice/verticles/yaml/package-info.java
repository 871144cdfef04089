/**
 * Reading YAML configuration documents, pure Java (snakeyaml's node API, no Vert.x): {@link
 * io.sluice.verticles.yaml.YamlNodes} turns a composed node tree into plain values with the line
 * of every field ({@link io.sluice.verticles.yaml.PlainDocument}), and {@link
 * io.sluice.verticles.yaml.ConfigValues#describe} is the one wording of what a value is in a
 * problem report. The readers of each section (the gateway's options and policies, the UDP rules)
 * build on it.
 */
package io.sluice.verticles.yaml;
