"""Fair use of the server's bot time and tables: budgets per player and per address.

One guest identity costs nothing, so a budget per player alone stops nobody: the hints a
player or an address may ask for, the tables an address may have unfinished and the tables
it may create a minute are counted too (``FairUse``, docs/security.md).  ``Counters`` keeps
the counts in this process, or in Redis when several processes form one service, so that a
client cannot spread its requests over the processes to get more.

A budget is a fixed window (``spend``: Redis ``INCR`` and ``EXPIRE``, one key per key and
window); a throttle is a token bucket (``allow``: ``limit`` at once, then one each
``window / limit`` seconds; in Redis one key holding when the bucket is full again, updated
by a script so that two processes never both take the last token); unfinished tables are a
set of table ids per address (``hold``/``release``/``held``: a Redis set, which forgets
itself a day after its last change in case a process died holding it).  Addresses are
counted by a hash, never stored as they are.

When Redis cannot be reached, every call raises ``Unavailable`` (a ``ConnectionError``):
the request that needed the count is refused (``unavailable``), as one that needed the
store.  Nothing is let through uncounted — a limit that opened whenever its counter was
down would be no limit — and nothing is counted in this process instead, which would give
each process its own budget again.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import redis.asyncio as redis
    from redis.commands.core import AsyncScript

__all__ = [
    "CREATION_WINDOW",
    "HINT_WINDOW",
    "HOLD_TTL",
    "Counters",
    "FairUse",
    "Unavailable",
    "address_key",
]

HINT_WINDOW: Final = 3600.0  # seconds of a hint budget
CREATION_WINDOW: Final = 60.0  # seconds of a table-creation budget
HOLD_TTL: Final = 24 * 3600  # seconds a Redis set of open tables outlives its last change
_FORGET_AT: Final = 10_000  # local windows kept before the expired ones are dropped
_SLACK: Final = 1e-6  # seconds: a bucket's sums of shares of a window are not exact

# A throttle in Redis (``Counters.allow``), atomic: KEYS[1] holds when the bucket is full
# again (``tat``); ARGV: now, the seconds one try costs, the window.  1 if allowed.
_THROTTLE: Final = """
local now, cost, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or ARGV[1])
if tat < now then tat = now end
local after = tat + cost
if after - now > window + tonumber(ARGV[4]) then return 0 end
redis.call('SET', KEYS[1], string.format('%.6f', after), 'PX',
           math.max(1, math.ceil((after - now) * 1000)))
return 1
"""


@dataclass(frozen=True)
class FairUse:
    """The budgets of one player and one address (``trumps serve`` flags)."""

    hints_per_player: int = 60  # an hour (--hints-per-player)
    hints_per_address: int = 200  # an hour (--hints-per-address)
    tables_per_address: int = 20  # unfinished at once (--tables-per-address)
    creations_per_address: int = 10  # a minute (--creations-per-address)


class Unavailable(ConnectionError):
    """Redis cannot be reached: the count could not be made (the request is refused)."""


@contextlib.contextmanager
def _reaching_redis() -> Iterator[None]:
    from redis.exceptions import RedisError  # installed wherever a Redis client was made

    try:
        yield
    except (RedisError, OSError) as e:
        raise Unavailable(f"the shared counters cannot be reached: {e}") from e


def address_key(address: str) -> str:
    """What an address is counted under (a hash: the address is never stored)."""
    return hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()[:20]


@dataclass
class Counters:
    """Budgets and held sets, here (``redis`` None) or shared through Redis."""

    redis: redis.Redis | None = None
    prefix: str = "trumps:"
    clock: Callable[[], float] = field(default=time.time, repr=False)
    _windows: dict[str, tuple[float, int]] = field(default_factory=dict, repr=False)
    _sets: dict[str, set[str]] = field(default_factory=dict, repr=False)
    _full_at: dict[str, float] = field(default_factory=dict, repr=False)
    _script: AsyncScript | None = field(default=None, repr=False)

    async def spend(self, key: str, limit: int, window: float) -> bool:
        """Count one more against ``key``'s budget of ``limit`` per ``window`` seconds;
        False (nothing more is counted against it in this window) once it is spent."""
        now = self.clock()
        start = now - now % window
        if self.redis is not None:
            name = f"{self.prefix}quota:{key}:{int(start)}"
            with _reaching_redis():
                pipe = self.redis.pipeline(transaction=True)
                pipe.incr(name)
                pipe.expire(name, int(window) + 1)
                count, _ = await pipe.execute()
            return int(count) <= limit
        if len(self._windows) > _FORGET_AT:
            self._windows = {k: v for k, v in self._windows.items() if v[0] + window > now}
        began, count = self._windows.get(key, (start, 0))
        if began != start:
            count = 0
        if count >= limit:
            return False
        self._windows[key] = (start, count + 1)
        return True

    async def allow(self, key: str, limit: int, window: float) -> bool:
        """Take one try from ``key``'s bucket: ``limit`` at once, refilled one each
        ``window / limit`` seconds; False (and nothing taken) while it is empty."""
        now, cost = self.clock(), window / limit
        if self.redis is not None:
            if self._script is None:
                self._script = self.redis.register_script(_THROTTLE)
            with _reaching_redis():
                allowed = await self._script(
                    keys=[f"{self.prefix}throttle:{key}"], args=[now, cost, window, _SLACK]
                )
            return bool(allowed)
        if len(self._full_at) > _FORGET_AT:
            self._full_at = {k: t for k, t in self._full_at.items() if t > now}
        after = max(self._full_at.get(key, now), now) + cost
        if after - now > window + _SLACK:
            return False
        self._full_at[key] = after
        return True

    async def hold(self, key: str, member: str) -> None:
        """``member`` (a table) counts in ``key``'s set until released."""
        if self.redis is not None:
            name = f"{self.prefix}held:{key}"
            with _reaching_redis():
                pipe = self.redis.pipeline(transaction=True)
                pipe.sadd(name, member)
                pipe.expire(name, HOLD_TTL)
                await pipe.execute()
            return
        self._sets.setdefault(key, set()).add(member)

    async def release(self, key: str, member: str) -> None:
        if self.redis is not None:
            with _reaching_redis():
                await self.redis.srem(f"{self.prefix}held:{key}", member)
            return
        held = self._sets.get(key)
        if held is not None:
            held.discard(member)
            if not held:
                del self._sets[key]

    async def held(self, key: str) -> int:
        """How many members ``key``'s set holds (on every process)."""
        if self.redis is not None:
            with _reaching_redis():
                return int(await self.redis.scard(f"{self.prefix}held:{key}"))
        return len(self._sets.get(key, ()))
