"""The one error of `genial serve`'s API: a refusal with its HTTP status and a message."""

from __future__ import annotations

__all__ = ["ApiError"]


class ApiError(Exception):
    """An action refused: HTTP status and a message for the player. Nothing was changed."""

    def __init__(self, status: int, message: str, **detail: object) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        #: More fields of the JSON answer beside ``error`` (a bad notation's ``index``).
        self.detail = detail
