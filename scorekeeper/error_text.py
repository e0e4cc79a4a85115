"""Errors of the rules and services in the user's language, by their stable code."""

from django.utils.translation import gettext as _

from scorekeeper.models import Game
from scorekeeper.rules.errors import RuleError, TieUnresolved


def error_text(error: RuleError) -> str:
    """Return the error as a sentence in the active language."""
    p = error.params
    if isinstance(error, TieUnresolved):
        if error.black and error.red:
            return _(
                "%(a)s and %(b)s tie on points. The colour of the next head card decides (rule 65):"
                " black for %(black)s, red for %(red)s. Or give the order of a high-card draw."
            ) % {"a": error.tied[0], "b": error.tied[1], "black": error.black, "red": error.red}
        return _(
            "%(names)s tie on points: a high-card draw decides the order (rules 57-58, 66)."
        ) % {"names": ", ".join(error.tied)}
    texts = {
        "unknown-player": lambda: _("%(name)s is not at this table.") % p,
        "knocker-fool": lambda: _("The knocker cannot be the fool discarder."),
        "knocker-total": lambda: _("The knocker cannot pay the total."),
        "knocker-color": lambda: _("The knocker's colour goes in the knock kind, not here."),
        "knocker-speto-held": lambda: _(
            "The knocker's Spetos go under “Spetos the knocker knocked with”."
        ),
        "points-missing": lambda: _("Points are missing for %(names)s.") % p,
        "points-and-levels": lambda: _("Enter points or levels, not both."),
        "levels-incomplete": lambda: _("Give a level for every loser: %(names)s.") % p,
        "levels-without-knock": lambda: _(
            "Levels are only for knock games: enter everyone's points."
        ),
        "fool-without-knock": lambda: _("Without a knocker there is no fool."),
        "total-without-knock": lambda: _("Without a knocker nobody pays the total."),
        "too-many-spetos": lambda: (
            _("That makes %(n)s Spetos, but the deck has only two (2♣, Q♠).") % p
        ),
        "face-down-speto-not-held": lambda: _(
            "A face-down Speto is one the knocker knocked with: set that count to at least 1."
        ),
        "head-twice": lambda: _("There is only one head card: the head was already picked up."),
        "show-twice": lambda: _("Only one player can show both Spetos."),
        "close-self": lambda: _("%(name)s cannot close-discard to themselves.") % p,
        "events-after-fine": lambda: _("A fine ends the game: nothing can follow it."),
        "fine-with-result": lambda: _("A fine ended this game: it has no result."),
        "game-in-play": lambda: _("Finish or void the game in play first."),
        "game-recorded": lambda: (
            _("Game %(n)s was already recorded by %(who)s at %(at)s.")
            % {**p, "who": p["who"] or _("another phone")}
        ),
        "game-voided": lambda: _("Game %(n)s was voided.") % p,
        "game-changed": lambda: (
            _("Game %(n)s has changed since this page was opened: it is now %(state)s.")
            % {**p, "state": Game.Status(str(p["state"])).label}
        ),
        "game-started": lambda: (
            _("Game %(n)s was already started by another phone: here is the table as it is now.")
            % p
        ),
        "too-many-tries": lambda: _("Too many codes were tried from this phone: wait ten minutes."),
        "invite-unknown": lambda: _("That invite is unknown or has expired."),
        "key-reused": lambda: _("This form was already used: reload the page."),
        "session-closed": lambda: _("This night is closed."),
        "last-drawer": lambda: _("A stock-out game needs who drew the last card (rule 11)."),
        "tie-needs-draw": lambda: (
            _(
                "Game %(n)s has a tie of three or more:"
                " a high-card draw settles it, not the head card."
            )
            % p
        ),
        "tie-still-open": lambda: _("That does not settle the tie of game %(n)s.") % p,
        "games-open": lambda: (
            _("Game %(n)s is not settled yet: finish it, resolve its tie or void it.") % p
        ),
        "paid-twice": lambda: _("This transfer is already marked paid."),
        "voided-twice": lambda: _("Game %(n)s is already voided.") % p,
        "game-never-started": lambda: _(
            "The game this was entered for was never started: its start was refused."
        ),
        "corrected-twice": lambda: _("Game %(n)s is already corrected.") % p,
        "not-voided": lambda: _("Void game %(n)s before correcting it.") % p,
        "level-sleeper": lambda: (
            _("%(name)s never collected or held one suit only: rule 60 makes them lose more.") % p
        ),
        "level-fool-light-color": lambda: (
            _("%(name)s fooled a light-colour knock: rule 60 makes them lose more.") % p
        ),
        "seats": lambda: _("Knock Dummy needs four different players."),
        # The score sheets: classic Dummy to 500 and Gong Zhu.
        "scoresheet-players": lambda: (
            _("This game needs %(fewest)s to %(most)s different players.") % p
        ),
        "scoresheet-money": lambda: _("Classic Dummy keeps score only: it has no point value."),
        "hand-recorded": lambda: (
            _("Hand %(n)s was already recorded by %(who)s at %(at)s: here is the sheet.") % p
        ),
        "match-over": lambda: (
            _("The match is over: %(names)s won. Close it, or void a hand to go on.") % p
            if "names" in p
            else _("The match is over: close it, or void a hand to go on.")
        ),
        "points-fives": lambda: (
            _("%(name)s's points must come in fives: every card counts 5, 10, 15 or 50.") % p
        ),
        "points-range": lambda: (
            _("%(name)s's points cannot be more than the whole deck's %(most)s.") % p
        ),
        "knocker-hand": lambda: (
            _(
                "%(name)s knocked, so holds no cards: leave their hand empty (the knock card is the"
                " bonus)."
            )
            % p
        ),
        "knocker-collected": lambda: _(
            "A knocker who never collected knocked dark: choose a dark knock instead."
        ),
        "sleeper-table": lambda: _("%(name)s never collected, so laid nothing on the table.") % p,
        "head-sleeper": lambda: (
            _("%(name)s picked up the head card, so collected: they cannot be a dark sleeper.") % p
        ),
        "head-close-twice": lambda: _("There is one head card: one close discard of it at most."),
        "head-close-without-head": lambda: (
            _("%(name)s's close discard of the head needs another player to have picked it up.") % p
        ),
        "speto-defence-twice": lambda: _(
            "Only the first discard of a hand can be a Speto-defence discard."
        ),
        "house-not-played": lambda: _("The house does not play that rule (its amount is 0)."),
        "card-missing": lambda: (
            _("Nobody took %(cards)s: in a four-player deal every point card is taken.") % p
        ),
        "cards-missing": lambda: (
            _("Nobody took %(cards)s: a three-player deal leaves out one card at most.") % p
        ),
        "hub": lambda: _("Choose who everyone settles with."),
        "points-deck": lambda: (
            _("The counts add up to %(n)s points laid and held: the whole deck has %(most)s.") % p
        ),
        "speto-penalty-count": lambda: (
            _("%(n)s Speto penalties of one kind, but the deck has only %(most)s Spetos.") % p
        ),
        # Names, invites and hosts.
        "player-name": lambda: _("A player needs a name: this one has nothing visible in it."),
        "group-name": lambda: _("A group needs a name: this one has nothing visible in it."),
        "invite-life": lambda: _("An invite lasts an hour to a week."),
        "owner": lambda: _("Only the group's owner can do that to the owner."),
        "owner-host": lambda: _("Hand the group on to one of its hosts."),
        "last-host": lambda: _("A group keeps at least one host."),
        "too-many-groups": lambda: _("Too many new groups from here: wait an hour."),
    }
    text = texts.get(error.code)
    return text() if text else str(error)
