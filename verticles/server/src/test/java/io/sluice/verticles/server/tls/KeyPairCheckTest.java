package io.sluice.verticles.server.tls;

import io.sluice.verticles.server.kit.TestCertificates;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The pair a reload checks is the pair it serves. When the check read the files and the server then
 * read them again, a renewal landing between the two reads put an unchecked pair in use, which could
 * fail every handshake; now the files are read once, and the bytes read are what the server is given.
 */
class KeyPairCheckTest {

  @TempDir
  Path folder;

  @Test
  void whatIsReadIsWhatWasCheckedWhateverTheFilesBecomeAfter() throws Exception {
    TestCertificates ca = new TestCertificates(folder, "sluice");
    TestCertificates.Issued server = ca.server("server");
    byte[] certificate = Files.readAllBytes(server.certificateFile());
    byte[] key = Files.readAllBytes(server.keyFile());

    PemKeyCertOptions pair = KeyPairCheck.read(server.certificateFile(), server.keyFile());
    // A renewal half done: a new certificate beside the old key.
    TestCertificates.Issued renewed = ca.server("renewed");
    Files.copy(renewed.certificateFile(), server.certificateFile(), StandardCopyOption.REPLACE_EXISTING);

    assertThat(pair.getCertPaths()).isEmpty();
    assertThat(pair.getKeyPaths()).isEmpty();
    assertThat(pair.getCertValues()).containsExactly(Buffer.buffer(certificate));
    assertThat(pair.getKeyValues()).containsExactly(Buffer.buffer(key));
    assertThatThrownBy(() -> KeyPairCheck.read(server.certificateFile(), server.keyFile()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the private key in " + server.keyFile() + " does not match the certificate in "
            + server.certificateFile());
  }

  @Test
  void filesThatDoNotLoadAreNamed() throws Exception {
    TestCertificates.Issued server = new TestCertificates(folder, "sluice").server("server");
    Files.writeString(server.keyFile(), "not a key");
    assertThatThrownBy(() -> KeyPairCheck.read(server.certificateFile(), server.keyFile()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(server.certificateFile() + " and " + server.keyFile() + " do not load");
    assertThatThrownBy(() -> KeyPairCheck.read(folder.resolve("absent.pem"), server.keyFile()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(folder.resolve("absent.pem") + " and " + server.keyFile() + " do not load");
  }
}
