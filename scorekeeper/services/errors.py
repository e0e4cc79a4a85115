"""The error a service raises for a request it refuses; nothing has been written when it does."""

from scorekeeper.rules.errors import RuleError


class ServiceError(RuleError):
    """A request that cannot be carried out as asked."""
