"""Functions over Python's own types, each asserting that it received exactly them: what
`toolgen import --from python --bind` converts the validated arguments back into."""

from __future__ import annotations

import datetime
import enum
import uuid
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from pydantic import BaseModel


class Cabin(enum.Enum):
    ECONOMY = "economy"
    BUSINESS = "business"


@dataclass
class Leg:
    """One leg of a trip."""

    origin: str
    destination: str
    day: datetime.date


class Traveller(BaseModel):
    """Who travels."""

    name: str
    born: datetime.date


class Quote(BaseModel):
    """What a trip costs."""

    reference: uuid.UUID
    total: Decimal
    legs: list[Leg]
    valid_until: datetime.datetime


def plan_trip(
    legs: list[Leg],
    traveller: Traveller,
    cabin: Cabin = Cabin.ECONOMY,
    departs_at: datetime.time | None = None,
    budget: Decimal | None = None,
) -> Quote:
    """Price a trip of one or more legs.

    Args:
        legs: The legs, in the order they are flown.
        traveller: Who travels.
        cabin: The class of travel.
        departs_at: The earliest time of day to leave.
        budget: The most the trip may cost, in euros.
    """
    assert all(type(leg) is Leg and type(leg.day) is datetime.date for leg in legs), legs
    assert type(traveller) is Traveller and type(traveller.born) is datetime.date, traveller
    assert type(cabin) is Cabin, cabin
    assert departs_at is None or type(departs_at) is datetime.time, departs_at
    assert budget is None or type(budget) is Decimal, budget
    return Quote(
        reference=uuid.UUID("12345678-1234-5678-1234-567812345678"),
        total=Decimal("120.50") * len(legs),
        legs=legs,
        valid_until=datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
    )


def archive_booking(
    reference: uuid.UUID,
    folder: Path,
    tags: dict[str, datetime.date],
    when: datetime.datetime,
) -> Path:
    """Write a booking's documents into a folder.

    Args:
        reference: The booking reference, as plan_trip gives it.
        folder: Where to write the documents.
        tags: Dates to remember, by name.
        when: When the booking was made.
    """
    assert type(reference) is uuid.UUID, reference
    assert isinstance(folder, Path), folder
    assert all(type(day) is datetime.date for day in tags.values()), tags
    assert type(when) is datetime.datetime, when
    return folder / f"{reference}.pdf"


def count_days(start: datetime.date, end: datetime.date) -> int:
    """Count the days from one date to another.

    Args:
        start: The first day.
        end: The day after the last.

    Raises:
        ValueError: When the end is before the start.
    """
    assert type(start) is datetime.date and type(end) is datetime.date, (start, end)
    if end < start:
        raise ValueError(f"{end} is before {start}")
    return (end - start).days


async def next_departure(
    after: datetime.datetime, cabins: list[Cabin] | None = None
) -> datetime.datetime:
    """Find the next departure after a moment (async, as a function that awaits a service is).

    Args:
        after: The moment to search from.
        cabins: The classes of travel wanted; any when not given.
    """
    assert type(after) is datetime.datetime, after
    assert cabins is None or all(type(cabin) is Cabin for cabin in cabins), cabins
    return after + datetime.timedelta(hours=2)
