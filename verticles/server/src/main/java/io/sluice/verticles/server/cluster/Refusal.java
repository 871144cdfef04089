package io.sluice.verticles.server.cluster;

/**
 * Why a member was refused: what decides whether it is ever asked again ({@link MemberAdmission}).
 */
sealed interface Refusal {

  /** Whether the member is asked again, in case its answers were only lost. */
  boolean askedAgain();

  /** It lacks a node's attributes (a bare Hazelcast member): it is never asked. */
  record NotANode() implements Refusal {
    @Override
    public boolean askedAgain() {
      return false;
    }
  }

  /**
   * Its asks went unanswered for a whole window: a member without the credentials, or a genuine
   * one whose answers were lost while the bus's connections were made again (after a merge, under
   * load). It is asked again ({@link AskingAgain}) while Hazelcast lists it and it says it is ready.
   */
  record Unproved() implements Refusal {
    @Override
    public boolean askedAgain() {
      return true;
    }
  }
}
