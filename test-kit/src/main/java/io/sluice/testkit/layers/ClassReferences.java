package io.sluice.testkit.layers;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The classes one compiled class refers to, read from its constant pool: the classes it names
 * (types it creates, calls, casts to, catches) and every type in its field, method and generic
 * signatures and annotations. What the code uses, not what its source imports: an unused import
 * is no reference, a fully qualified name is one. A compile-time constant (a {@code static final}
 * primitive or String) is copied into the class that reads it and leaves no reference.
 */
final class ClassReferences {

  /** A class type inside a descriptor or a signature: {@code Lio/sluice/a/B;} or {@code Lio/sluice/a/B<…>;}. */
  private static final Pattern IN_DESCRIPTOR = Pattern.compile("L([\\w/$]+)[;<]");

  private static final int UTF8 = 1;
  private static final int CLASS = 7;

  private ClassReferences() {
  }

  /** The binary names ({@code io.sluice.a.B$C}) of the classes {@code classFile} refers to, itself included. */
  static Set<String> of(Path classFile) throws IOException {
    try (InputStream in = Files.newInputStream(classFile)) {
      return of(new DataInputStream(in));
    }
  }

  private static Set<String> of(DataInputStream in) throws IOException {
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort();
    in.readUnsignedShort();
    int count = in.readUnsignedShort();
    String[] texts = new String[count];
    int[] classNames = new int[count];
    int classes = 0;
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case UTF8 -> texts[i] = in.readUTF();
        case CLASS -> classNames[classes++] = in.readUnsignedShort();
        case 8, 16, 19, 20 -> in.skipBytes(2);
        case 15 -> in.skipBytes(3);
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
        case 5, 6 -> {
          in.skipBytes(8);
          i++; // a long or a double takes two entries
        }
        default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
      }
    }
    Set<String> names = new HashSet<>();
    Set<Integer> namesOfClasses = new HashSet<>();
    for (int c = 0; c < classes; c++) {
      namesOfClasses.add(classNames[c]);
      String name = texts[classNames[c]];
      if (name.startsWith("[")) {
        descriptorTypes(name, names);
      } else {
        names.add(name.replace('/', '.'));
      }
    }
    for (int i = 1; i < count; i++) {
      if (texts[i] != null && !namesOfClasses.contains(i)) {
        descriptorTypes(texts[i], names);
      }
    }
    return names;
  }

  private static void descriptorTypes(String text, Set<String> names) {
    Matcher type = IN_DESCRIPTOR.matcher(text);
    while (type.find()) {
      names.add(type.group(1).replace('/', '.'));
    }
  }
}
