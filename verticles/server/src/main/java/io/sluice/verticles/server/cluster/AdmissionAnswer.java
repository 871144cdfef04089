package io.sluice.verticles.server.cluster;

/**
 * What came of one ask of a member to admit this node ({@link MemberAdmission}). Over a mutually
 * authenticated bus a member without this cluster's credentials cannot answer at all: its
 * handshake fails and the ask times out, so "no answer" is all the bus can say of it; what tells a
 * genuine member from it is that the genuine one answers when asked again.
 */
sealed interface AdmissionAnswer {

  /** What a log line says of it. */
  String why();

  /** Whether the member asked answered, and so is admitted. */
  default boolean proved() {
    return false;
  }

  /** The member asked answered under its member UUID: it proved it holds the credentials. */
  record Proved(String member) implements AdmissionAnswer {
    @Override
    public boolean proved() {
      return true;
    }

    @Override
    public String why() {
      return "member " + member + " answered";
    }
  }

  /**
   * Another member of the node id asked answered (its previous UUID, before a merge gave it a new
   * one): that one is admitted, the one asked is not yet.
   */
  record AnotherMember(String member) implements AdmissionAnswer {
    @Override
    public String why() {
      return "member " + member + " answered for its node id";
    }
  }

  /** No answer: the ask timed out, found no handler, or could not be sent. */
  record NoAnswer(String cause) implements AdmissionAnswer {
    @Override
    public String why() {
      return cause;
    }
  }
}
