"""The bag's commitment: a game between people shows, at its start, a fingerprint of the bag
it will be played with, and reveals the bag at its end, so that every player can check that
nobody (the server included) changed the bag during the game.

The exact bytes hashed::

    commitment = SHA-256( salt || ASCII(f"{seed}:{bag}") )

- ``salt``: 32 random bytes from the operating system's secure source (`secrets`), kept
  secret until the game is over and then shown as 64 hex digits;
- ``seed``: the game's seed in decimal (it also decides how swapped tiles are mixed back:
  the core's generator seeded with it XOR ``rng::salt::SWAP_MIX``, which the page replays);
- ``bag``: the 120 tiles in draw order (the deal included), each as its two colour letters,
  with no separator: ``"OOYGRY..."`` (240 characters).

The check in Python, with the record downloaded at the end (which carries ``salt``) and the
commitment the page showed at the start::

    hashlib.sha256(bytes.fromhex(r["salt"]) + f"{r['seed']}:{''.join(r['bag'])}".encode()).hexdigest()
"""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["SALT_BYTES", "commitment", "new_salt", "preimage"]

SALT_BYTES = 32


def new_salt() -> str:
    """A fresh secret salt, as hex."""
    return secrets.token_hex(SALT_BYTES)


def preimage(salt: str, seed: int, bag: list[str]) -> bytes:
    """The bytes hashed (see the module's text)."""
    return bytes.fromhex(salt) + f"{seed}:{''.join(bag)}".encode("ascii")


def commitment(salt: str, seed: int, bag: list[str]) -> str:
    """SHA-256 of the preimage, as 64 hex digits."""
    return hashlib.sha256(preimage(salt, seed, bag)).hexdigest()
