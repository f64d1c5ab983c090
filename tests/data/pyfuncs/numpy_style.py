"""Geometry and price tools, documented in NumPy style."""

import dataclasses
import enum

from typing_extensions import TypedDict


class Unit(enum.Enum):
    """A unit of length."""

    METRE = "m"
    FOOT = "ft"


@dataclasses.dataclass
class Point:
    """A point on the plane."""

    x: float
    y: float


class Summary(TypedDict):
    count: int
    total: float


def distance(a: Point, b: Point, unit: Unit = Unit.METRE) -> float:
    """Measure the straight-line distance between two points.

    Parameters
    ----------
    a : Point
        The first point.
    b : Point
        The second point.
    unit : Unit
        The unit of the result.

    Returns
    -------
    float
        The distance, in `unit`.
    """
    return 0.0


def summarize(prices: dict[str, float], tags: set[str] | None = None, window: tuple[int, int] = (0, 10)) -> Summary:
    """Summarize the prices of some items.

    Parameters
    ----------
    prices
        The price of each item, by name.
    tags
        Only the items with one of these tags.
    window
        The first and the last index to include.

    Raises
    ------
    KeyError
        If a tag is unknown.
    """
    return {"count": len(prices), "total": sum(prices.values())}
