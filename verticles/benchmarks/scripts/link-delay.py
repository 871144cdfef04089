#!/usr/bin/env python3
"""Holds the packets of one iptables NFQUEUE queue for a delay, and drops a share of them.

A stand-in for `tc qdisc ... netem delay D J loss P` on kernels built without netem (no
CONFIG_NET_SCH_NETEM, as this project's test machines): iptables' NFQUEUE target hands each packet
to this process, which gives its verdict (accept) only once the packet's delay has passed, or drops
it. As with netem, a packet's delay is drawn uniformly from [D - J, D + J], so jitter can reorder
packets, and loss is independent per packet.

It speaks the kernel's nfnetlink_queue protocol over a netlink socket with the standard library
only (no libnetfilter_queue, nothing to compile). Asking for the packet's metadata only, never its
bytes, keeps each packet's cost to two short netlink messages.

Usage, inside a network namespace, as root:
  link-delay.py --queue 7 --delay-us 1000 --jitter-us 500 --loss 0.1 &
  (wait for the line "ready" on standard output, then)
  iptables -A OUTPUT -o eth0 -j NFQUEUE --queue-num 7

Until it prints "ready" the queue has no reader and the kernel drops what the rule sends it; when
it stops (SIGTERM or SIGINT) it accepts what it still holds and prints one line of counts.
"""
import argparse
import errno
import heapq
import random
import select
import signal
import socket
import struct
import sys
import time

NETLINK_NETFILTER = 12
NETLINK_NO_ENOBUFS = 5
SOL_NETLINK = 270
NLMSG_ERROR = 2
NLM_F_REQUEST = 1
NLM_F_ACK = 4
NFNL_SUBSYS_QUEUE = 3
NFQNL_MSG_PACKET = 0
NFQNL_MSG_VERDICT = 1
NFQNL_MSG_CONFIG = 2
NFQA_PACKET_HDR = 1
NFQA_VERDICT_HDR = 2
NFQA_CFG_CMD = 1
NFQA_CFG_PARAMS = 2
NFQA_CFG_QUEUE_MAXLEN = 3
NFQNL_CFG_CMD_BIND = 1
NFQNL_COPY_META = 1
NF_DROP = 0
NF_ACCEPT = 1


def attribute(kind, payload):
    length = 4 + len(payload)
    return struct.pack("=HH", length, kind) + payload + b"\0" * (-length % 4)


def message(kind, queue, attributes, flags=NLM_F_REQUEST, seq=0):
    body = struct.pack("=BB", socket.AF_UNSPEC, 0) + struct.pack("!H", queue) + b"".join(attributes)
    header = struct.pack("=IHHII", 16 + len(body), (NFNL_SUBSYS_QUEUE << 8) | kind, flags, seq, 0)
    return header + body


def verdict(queue, packet_id, accept):
    return message(NFQNL_MSG_VERDICT, queue,
                   [attribute(NFQA_VERDICT_HDR, struct.pack("!II", NF_ACCEPT if accept else NF_DROP, packet_id))])


def records(data, offset, header, size):
    """(type, body) of each 4-byte-aligned record from offset on: netlink messages (header "=IH",
    16 bytes: length, type) or netlink attributes ("=HH", 4 bytes: length, type)."""
    while offset + size <= len(data):
        length, kind = struct.unpack_from(header, data, offset)
        if length < size:
            return
        yield kind, data[offset + size:offset + length]
        offset += (length + 3) & ~3


def messages(data):
    """(type, payload after the netlink header) of each message in one datagram."""
    return records(data, 0, "=IH", 16)


def packet_id(payload):
    """The id of a queued packet, from its NFQA_PACKET_HDR attribute (after the 4-byte nfgenmsg)."""
    for kind, body in records(payload, 4, "=HH", 4):
        if kind & 0x7FFF == NFQA_PACKET_HDR:
            return struct.unpack_from("!I", body, 0)[0]
    return None


def configure(sock, queue, max_queued):
    """Binds the queue and asks for metadata only; each request is acknowledged or fails here."""
    requests = [
        [attribute(NFQA_CFG_CMD, struct.pack("!BxH", NFQNL_CFG_CMD_BIND, 0))],
        [attribute(NFQA_CFG_PARAMS, struct.pack("!IB", 0, NFQNL_COPY_META))],
        [attribute(NFQA_CFG_QUEUE_MAXLEN, struct.pack("!I", max_queued))],
    ]
    for seq, attributes in enumerate(requests, start=1):
        sock.send(message(NFQNL_MSG_CONFIG, queue, attributes, NLM_F_REQUEST | NLM_F_ACK, seq))
        for kind, payload in messages(sock.recv(65536)):
            if kind == NLMSG_ERROR:
                code = -struct.unpack_from("=i", payload, 0)[0]
                if code:
                    raise OSError(code, "nfnetlink_queue refused queue %d's configuration (request %d): %s"
                                  % (queue, seq, errno.errorcode.get(code, code)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queue", type=int, required=True, help="the NFQUEUE number the iptables rule sends to")
    parser.add_argument("--delay-us", type=int, required=True, help="mean delay of each packet, microseconds")
    parser.add_argument("--jitter-us", type=int, default=0, help="the delay varies uniformly by up to this much")
    parser.add_argument("--loss", type=float, default=0.0, help="percent of packets dropped")
    parser.add_argument("--max-queued", type=int, default=65536, help="packets the kernel holds for us at most")
    parser.add_argument("--seed", type=int, default=None, help="seed of the delays and losses, to repeat a run")
    args = parser.parse_args()
    if args.jitter_us > args.delay_us or args.delay_us < 0 or not 0 <= args.loss <= 100:
        parser.error("need 0 <= jitter <= delay and 0 <= loss <= 100")
    draw = random.Random(args.seed)

    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    sock.setsockopt(SOL_NETLINK, NETLINK_NO_ENOBUFS, 1)
    sock.bind((0, 0))
    configure(sock, args.queue, args.max_queued)

    stopping = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stopping.append(True))
    print("ready", flush=True)

    held = []  # (release time, arrival order, packet id): a heap, earliest release first
    arrived = delayed = dropped = 0
    held_total = 0.0
    while not stopping:
        now = time.monotonic()
        timeout = max(0.0, held[0][0] - now) if held else 0.5
        try:
            readable, _, _ = select.select([sock], [], [], timeout)
        except InterruptedError:
            continue
        answers = []
        if readable:
            now = time.monotonic()
            for kind, payload in messages(sock.recv(1 << 20)):
                if kind != (NFNL_SUBSYS_QUEUE << 8) | NFQNL_MSG_PACKET:
                    continue
                pid = packet_id(payload)
                if pid is None:
                    continue
                arrived += 1
                if draw.random() * 100 < args.loss:
                    dropped += 1
                    answers.append(verdict(args.queue, pid, False))
                    continue
                hold = (args.delay_us + draw.uniform(-args.jitter_us, args.jitter_us)) / 1e6
                held_total += hold
                heapq.heappush(held, (now + hold, arrived, pid))
        now = time.monotonic()
        while held and held[0][0] <= now:
            answers.append(verdict(args.queue, heapq.heappop(held)[2], True))
            delayed += 1
        if answers:
            sock.send(b"".join(answers))
    while held:
        sock.send(verdict(args.queue, heapq.heappop(held)[2], True))
        delayed += 1
    mean = held_total / max(1, delayed) * 1e6
    print("packets %d, delayed %d (mean %.0f us), dropped %d" % (arrived, delayed, mean, dropped), flush=True)


if __name__ == "__main__":
    sys.exit(main())
