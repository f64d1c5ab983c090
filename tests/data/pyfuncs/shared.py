"""A helper other fixture modules import: a tool of this module only."""


def lookup_airport(code: str) -> str:
    """Find the name of an airport.

    Args:
        code: Its IATA code, such as "CDG".
    """
    return code
