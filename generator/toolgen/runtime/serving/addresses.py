# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Which addresses are this machine's own (loopback): where a server may listen without
credentials, and the only hosts plain http is fetched from (an issuer's keys, in tests)."""

from __future__ import annotations

import ipaddress


def loopback(host: str) -> bool:
    """Whether `host` is a loopback address: `localhost`, 127.0.0.0/8, ::1 (an IPv4-mapped
    one too, ::ffff:127.0.0.1)."""
    if host.lower() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or (mapped is not None and mapped.is_loopback)
