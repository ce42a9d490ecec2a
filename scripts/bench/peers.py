"""Peer tools for `scripts/bench.sh --peers`. Filled in as adapters are written."""


def make_peers(fixture, root, env):
    return []
