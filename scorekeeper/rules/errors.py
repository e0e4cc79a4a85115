"""Errors the rules raise: a stable code for the UI's translations and a clear English message."""

from collections.abc import Sequence


class RuleError(ValueError):
    """A game the rules cannot settle as reported."""

    def __init__(self, code: str, template: str, *, field: str = "", **params: object) -> None:
        super().__init__(template.format(**params))
        self.code = code
        self.template = template
        self.field = field
        self.params = params

    @property
    def message(self) -> str:
        return str(self)


class TieUnresolved(RuleError):
    """Players tie and the rule that orders them has not been applied yet (rules 57-58, 65-66)."""

    def __init__(
        self,
        *,
        tied: Sequence[str],
        at_stake: Sequence[str],
        black: str | None = None,
        red: str | None = None,
    ) -> None:
        names = ", ".join(tied)
        stakes = "/".join(at_stake)
        if black and red:
            how = (
                f"give tie_break: the next head card's colour (rule 65: {black} is black, "
                f"{red} is red) or an order"
            )
        else:
            how = "give tie_break: the order of the high-card draw (rules 57-58, 66)"
        super().__init__(
            "tie-unresolved",
            "{names} tie on points for {stakes}: {how}",
            field="tie_break",
            names=names,
            stakes=stakes,
            how=how,
        )
        self.tied = tuple(tied)
        self.at_stake = tuple(at_stake)
        self.black = black
        self.red = red
