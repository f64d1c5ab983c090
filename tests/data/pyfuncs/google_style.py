"""Flight tools, documented in Google style; the annotations are strings (PEP 563)."""

from __future__ import annotations

import datetime
from typing import Annotated, Literal, Optional

from pydantic import BaseModel, Field

from pyfuncs.shared import lookup_airport  # imported: a tool of pyfuncs.shared, not of this module

__all__ = ["book_flight", "lookup_airport", "search_flights"]


class Flight(BaseModel):
    """One flight on offer."""

    number: str = Field(description="The flight number, such as AF1234.")
    departs: datetime.datetime
    price_eur: float
    stops: int = 0


class Passenger(BaseModel):
    """Who travels."""

    name: str
    birth_date: datetime.date


def search_flights(
    origin: str,
    destination: str,
    date: datetime.date,
    cabin: Literal["economy", "premium", "business"] = "economy",
    max_stops: Optional[int] = None,  # noqa: UP045 - the spelling under test
    passengers: Annotated[int, Field(ge=1, le=9, description="How many people travel.")] = 1,
) -> list[Flight]:
    """Search the flights between two airports on one day.

    Use it before booking: it lists every flight with its price.

    Args:
        origin: IATA code of the airport to leave from, such as "CDG".
        destination: IATA code of the airport to fly to.
        date: The day of departure.
        cabin: The class of travel.
        max_stops: At most this many stops; any number when not given.
        passengers: Not used: the description in the type hint wins.

    Returns:
        The flights found, cheapest first.

    Raises:
        ValueError: When the origin and the destination are the same airport.
        LookupError: When an airport code is unknown.
    """
    return []


def book_flight(number: str, passenger: Passenger, seat: str | None = None) -> dict[str, str]:
    """Book a seat on a flight.

    Args:
        number: The flight number, as search_flights gives it.
        passenger: Who travels.
        seat: A seat such as 12A; any free seat when not given.
        luggage: Documented here, but not a parameter.

    Returns:
        The booking reference, under "reference".
    """
    return {"reference": lookup_airport(number)}


def _cheapest(flights: list[Flight]) -> Flight:
    """Private: not a tool."""
    return min(flights, key=lambda flight: flight.price_eur)
