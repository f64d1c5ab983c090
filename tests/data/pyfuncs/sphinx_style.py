"""Chat tools, documented in Sphinx style (and one not documented at all)."""

from typing import Annotated


def send_message(channel: Annotated[str, "The channel's name, without the hash sign"], text: str,
                 urgent: bool = False) -> str:
    """Post a message to a chat channel.

    :param text: The message, in Markdown.
    :param urgent: Notify every member of the channel.
    :returns: The identifier of the posted message.
    :raises PermissionError: If the bot may not post in that channel.
    :raises TimeoutError: If the chat service does not answer.
    """
    return "m1"


def ping(host: str) -> bool:
    return True
