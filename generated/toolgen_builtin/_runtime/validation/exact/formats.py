# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""`format` assertions for the exact checker, standard library only (RFC 3339, 5321, 1123,
3986, 4122, 6901 and the relative JSON pointer draft). Each takes a string; a format not
listed here stays an annotation."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable

from .ecma import ecma_pattern

_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z", re.ASCII)
_TIME = re.compile(
    r"([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-]([0-9]{2}):([0-9]{2}))\Z", re.ASCII
)
_DURATION = re.compile(
    r"P(?:(?:[0-9]+Y)?(?:[0-9]+M)?(?:[0-9]+D)?(?:T(?=[0-9])(?:[0-9]+H)?(?:[0-9]+M)?(?:[0-9]+S)?)?"
    r"|[0-9]+W)\Z",
    re.ASCII,
)
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\Z", re.ASCII)
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LOCAL = re.compile(rf'(?:{_ATOM}(?:\.{_ATOM})*|"(?:[^"\\\r\n]|\\.)*")\Z', re.ASCII)
_UUID = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\Z", re.ASCII)
_POINTER = re.compile(r"(?:/(?:[^~/]|~[01])*)*\Z")
_RELATIVE = re.compile(r"(?:0|[1-9][0-9]*)(?:[+-](?:0|[1-9][0-9]*))?(?:#|(?:/(?:[^~/]|~[01])*)*)\Z")
_UNRESERVED = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_PCT = r"%[0-9A-Fa-f]{2}"
_PCHAR = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:@]|{_PCT})"
_QUERY = re.compile(rf"(?:{_PCHAR}|[/?])*\Z", re.ASCII)
_SEGMENTS = re.compile(rf"(?:{_PCHAR}|/)*\Z", re.ASCII)
_USERINFO = re.compile(rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:]|{_PCT})*\Z", re.ASCII)
_REG_NAME = re.compile(rf"(?:[{_UNRESERVED}{_SUB_DELIMS}]|{_PCT})*\Z", re.ASCII)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*\Z", re.ASCII)
_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def date(text: str) -> bool:
    m = _DATE.match(text)
    if not m:
        return False
    year, month, day = (int(g) for g in m.groups())
    if not 1 <= month <= 12 or day < 1:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return day <= (29 if month == 2 and leap else 28 if month == 2 else _DAYS[month - 1])


def time(text: str) -> bool:
    m = _TIME.match(text)
    if not m:
        return False
    hour, minute, second = int(m[1]), int(m[2]), int(m[3])
    off_h, off_m = int(m[6] or 0), int(m[7] or 0)
    if hour > 23 or minute > 59 or second > 60 or off_h > 23 or off_m > 59:
        return False
    if second == 60:  # a leap second is 23:59:60 in UTC
        sign = -1 if m[5][:1] == "+" else 1
        utc = (hour * 60 + minute + sign * (off_h * 60 + off_m)) % (24 * 60)
        return utc == 23 * 60 + 59
    return True


def date_time(text: str) -> bool:
    head, sep, tail = text.partition("T") if "T" in text else text.partition("t")
    return bool(sep) and date(head) and time(tail)


def duration(text: str) -> bool:
    return text != "P" and bool(_DURATION.match(text))


def hostname(text: str) -> bool:
    if not text or len(text) > 253 or not text.isascii():
        return False
    labels = text[:-1].split(".") if text.endswith(".") and len(text) > 1 else text.split(".")
    if any(not _LABEL.match(label) for label in labels):
        return False
    # RFC 5891: "--" in the third and fourth positions only as an A-label ("xn--").
    return all(label[2:4] != "--" or label[:4].lower() == "xn--" for label in labels)


def ipv4(text: str) -> bool:
    if not text.isascii() or not re.fullmatch(r"[0-9.]+", text):
        return False
    try:
        ipaddress.IPv4Address(text)
    except ValueError:
        return False
    return True


def ipv6(text: str) -> bool:
    if not text.isascii() or "%" in text or not re.fullmatch(r"[0-9A-Fa-f:.]+", text):
        return False
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def email(text: str) -> bool:
    local, at, domain = text.rpartition("@")
    if not at or not local or not _LOCAL.match(local):
        return False
    if domain.startswith("[") and domain.endswith("]"):
        inner = domain[1:-1]
        return ipv6(inner[5:]) if inner[:5].lower() == "ipv6:" else ipv4(inner)
    return hostname(domain)


def _authority(text: str) -> bool:
    userinfo, at, hostport = text.rpartition("@")
    if at and not _USERINFO.match(userinfo):
        return False
    if hostport.startswith("["):
        host, bracket, port = hostport[1:].partition("]")
        if not bracket or not ipv6(host) or (port and not port.startswith(":")):
            return False
        port = port[1:]
    else:
        host, _, port = hostport.partition(":")
        if not _REG_NAME.match(host):
            return False
    return port.isdigit() or not port


def uri_reference(text: str) -> bool:
    if not text.isascii():
        return False
    rest, _, fragment = text.partition("#")
    rest, _, query = rest.partition("?")
    if not _QUERY.match(fragment) or not _QUERY.match(query):
        return False
    scheme, colon, tail = rest.partition(":")
    if colon and _SCHEME.match(scheme) and "/" not in scheme:
        rest = tail
    elif colon and "/" not in scheme:  # a relative path's first segment holds no ":"
        return False
    if rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        if not _authority(authority):
            return False
        rest = slash + path
    return bool(_SEGMENTS.match(rest))


def uri(text: str) -> bool:
    scheme, colon, _ = text.partition(":")
    return bool(colon) and bool(_SCHEME.match(scheme)) and uri_reference(text)


def uuid(text: str) -> bool:
    return bool(_UUID.match(text))


def regex(text: str) -> bool:
    return ecma_pattern(text) is not None


def json_pointer(text: str) -> bool:
    return bool(_POINTER.match(text))


def relative_json_pointer(text: str) -> bool:
    return bool(_RELATIVE.match(text))


FORMATS: dict[str, Callable[[str], bool]] = {
    "date-time": date_time,
    "date": date,
    "time": time,
    "duration": duration,
    "email": email,
    "hostname": hostname,
    "ipv4": ipv4,
    "ipv6": ipv6,
    "uri": uri,
    "uri-reference": uri_reference,
    "uuid": uuid,
    "regex": regex,
    "json-pointer": json_pointer,
    "relative-json-pointer": relative_json_pointer,
}
