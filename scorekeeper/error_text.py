"""Errors of the rules and services in the user's language, by their stable code.

Every code raised in scorekeeper/ has its sentence here (tests/views/test_error_text.py reads the
codes from the source). A "document" error, a field of a game's JSON refused by the readers of
rules/document.py, names the field's path ("points.เอ๋") and an English problem: both are told
again here, the path in the table's words and the problem by its pattern.
"""

import re
from collections.abc import Callable

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.models import Game
from scorekeeper.rules.errors import RuleError, TieUnresolved

# A document's fields, by their key, as the forms call them. A path's other parts are names.
FIELDS: dict[str, Promise] = {
    "rules": gettext_lazy("game"),
    "game": gettext_lazy("game"),
    "deal": gettext_lazy("the hand"),
    "players": gettext_lazy("players"),
    "level": gettext_lazy("stake level"),
    "stakes": gettext_lazy("rates"),
    "less": gettext_lazy("lose less"),
    "medium": gettext_lazy("lose medium"),
    "more": gettext_lazy("lose more"),
    "fine": gettext_lazy("the fine"),
    "knock": gettext_lazy("the knock"),
    "player": gettext_lazy("player"),
    "kind": gettext_lazy("kind of knock"),
    "points": gettext_lazy("points"),
    "levels": gettext_lazy("level of losing"),
    "collected": gettext_lazy("collected"),
    "color": gettext_lazy("one suit"),
    "fool": gettext_lazy("fool discard"),
    "total": gettext_lazy("pays the total"),
    "speto_held": gettext_lazy("Spetos held"),
    "knocker_speto": gettext_lazy("the knocker's Spetos"),
    "held": gettext_lazy("held"),
    "picked": gettext_lazy("picked up"),
    "face_down": gettext_lazy("card laid face down"),
    "tie_break": gettext_lazy("order of the high-card draw"),
    "head_color": gettext_lazy("colour of the head card"),
    "events": gettext_lazy("event"),
    "type": gettext_lazy("kind of event"),
    "close": gettext_lazy("close discarders"),
    "count": gettext_lazy("number of Spetos"),
    "reason": gettext_lazy("reason for the fine"),
    "head": gettext_lazy("head card"),
    "speto": gettext_lazy("Speto"),
    "counts": gettext_lazy("count"),
    "table": gettext_lazy("points on the table"),
    "hand": gettext_lazy("points in hand"),
    "difference": gettext_lazy("table minus hand"),
    "aces_in_runs": gettext_lazy("aces in Q-K-A runs"),
    "penalties": gettext_lazy("penalties"),
    "house": gettext_lazy("house rules"),
    "match": gettext_lazy("match"),
    "totals": gettext_lazy("totals so far"),
    "target": gettext_lazy("target"),
    "direction": gettext_lazy("direction of the target"),
    "captured": gettext_lazy("cards taken"),
    "no_point_cards": gettext_lazy("a hand without point cards"),
    "pig_in_shuan": gettext_lazy("the pig in a Shuan"),
    "knock_card_speto_100": gettext_lazy("a Speto knock card counts 100"),
    "knock_card_lay_off_100": gettext_lazy("a knock card that could be laid off counts 100"),
    "ace_in_run_10": gettext_lazy("an ace in a Q-K-A run counts 10"),
    "dummy_discard": gettext_lazy("dummy discard"),
    "dummy-discard": gettext_lazy("dummy discard"),
    "full_discard": gettext_lazy("full discard"),
    "full-discard": gettext_lazy("full discard"),
    "head_close": gettext_lazy("close discard of the head"),
    "head-close": gettext_lazy("close discard of the head"),
    "speto_close": gettext_lazy("close discard of a Speto"),
    "speto-close": gettext_lazy("close discard of a Speto"),
    "speto_defence": gettext_lazy("Speto-defence discard"),
    "speto-defence": gettext_lazy("Speto-defence discard"),
    "speto_laid_off": gettext_lazy("Speto laid off by another"),
    "speto-laid-off": gettext_lazy("Speto laid off by another"),
    "head_speto": gettext_lazy("Speto head card"),
}
PART = re.compile(r"\[(\d+)\]|([^.\[\]]+)")

# The readers' problems (rules/document.py and the *_document.py beside it), most particular
# first; each pattern's groups are the sentence's parameters.
PROBLEMS: list[tuple[re.Pattern[str], Callable[[], str]]] = [
    (re.compile(r"must be a JSON (?:object|list)"), lambda: _("is not in the right form")),
    (re.compile(r"must be a player's name"), lambda: _("must be a player's name")),
    (re.compile(r"must be a whole number"), lambda: _("must be a whole number")),
    (re.compile(r"must be true or false"), lambda: _("must be yes or no")),
    (re.compile(r"must be at least (?P<n>-?[\d,]+)"), lambda: _("must be at least %(n)s")),
    (
        re.compile(r"must be at most (?P<n>[\d,]+) in size"),
        lambda: _("must be between minus %(n)s and %(n)s"),
    ),
    (re.compile(r"must be at most (?P<n>[\d,]+)"), lambda: _("must be at most %(n)s")),
    (re.compile(r"must be .+"), lambda: _("is not a game this app keeps")),
    (re.compile(r".+ is not one of .+"), lambda: _("is not one of the choices")),
    (
        re.compile(r".+ is not a card code like C2, SQ, H10 or DA"),
        lambda: _("is not a card code (like C2, SQ, H10 or DA)"),
    ),
    (
        re.compile(r"give table and hand, or difference, not both"),
        lambda: _("takes the points on the table and in hand, or their difference, not both"),
    ),
    (
        re.compile(r"needs the table given as a list of cards"),
        lambda: _("needs the cards on the table, one by one"),
    ),
    (
        re.compile(r"give a list of players or .+"),
        lambda: _("takes the order of the draw or the colour of the head card"),
    ),
    (
        re.compile(r"give either a level .+ or stakes"),
        lambda: _("takes a stake level or three rates, not both"),
    ),
    (re.compile(r"is missing"), lambda: _("is missing")),
    (re.compile(r"(?P<key>\w+) is missing"), lambda: _("has no %(key)s")),
    (re.compile(r"needs a player and a kind"), lambda: _("needs who knocked and how")),
    (re.compile(r"needs a type and a player"), lambda: _("needs its kind and its player")),
    (re.compile(r"needs a player"), lambda: _("needs a player")),
    (re.compile(r"needs a knock"), lambda: _("needs a knocker")),
    (re.compile(r"unknown field .+"), lambda: _("has a field this app does not know")),
]


def field_text(path: str) -> str:
    """A field's path in the table's words: "points.เอ๋" is เอ๋'s points."""
    words: list[str] = []
    names: list[str] = []
    for index, key in PART.findall(path):
        if index and words:  # events[2]: the third event
            words[-1] = _("%(what)s no. %(n)s") % {"what": words[-1], "n": int(index) + 1}
        elif key in FIELDS:
            words.append(str(FIELDS[key]))
        elif key:
            names.append(key)
    what = " · ".join(words)
    if names:
        return _("%(what)s of %(name)s") % {"what": what, "name": ", ".join(names)}
    return what


def problem_text(problem: str) -> str:
    for pattern, text in PROBLEMS:
        match = pattern.fullmatch(problem)
        if match:
            params = match.groupdict()
            if "key" in params:
                params["key"] = str(FIELDS.get(params["key"], params["key"]))
            return text() % params if params else text()
    return _("is not as expected")


def document_text(error: RuleError) -> str:
    p = error.params
    return _("%(field)s %(problem)s") % {
        "field": field_text(str(p["where"])),
        "problem": problem_text(str(p["problem"])),
    }


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
    if error.code == "document":
        return document_text(error)
    texts = {
        **_more_texts(p),
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
        "no-such-event": lambda: _("Game %(n)s has no event %(event)s.") % p,
        "received-twice": lambda: _("This transfer is already received."),
        "paid-at-table-twice": lambda: (
            _("Game %(n)s has nothing left to pay at the table: it was paid already.") % p
        ),
        "reopen-host": lambda: _("Only a host can reopen a transfer already received."),
        "carry-paid": lambda: _("This transfer is already marked paid: there is nothing to carry."),
        "carried-twice": lambda: _("This transfer is already carried to next time."),
        "not-carried": lambda: _("This transfer is not carried to next time."),
        "pay-carried": lambda: _(
            "This transfer is carried to next time: mark it paid where it is owed, on a later"
            " night or the group's page."
        ),
        "debt-paid": lambda: _("This debt is already marked paid."),
        "debt-not-paid": lambda: _("This debt is not marked paid."),
        "debt-night": lambda: _("That night belongs to another group."),
        "debt-taken-back": lambda: _("This debt was taken back: nothing is owed."),
        "debt-in-tab": lambda: _(
            "This debt was settled in the tab: a host takes the whole tab back, or pay its"
            " transfers."
        ),
        "tab-host": lambda: _("Only a host settles the tab or takes it back."),
        "tab-empty": lambda: _("Nothing is carried across nights: there is no tab to settle."),
        "tab-taken-back": lambda: _("This tab was already taken back."),
        "tab-paid": lambda: _(
            "A transfer of this tab is marked paid: mark it unpaid first, then take the tab back."
        ),
        "promptpay-not-yours": lambda: _("Only %(name)s can save where %(name)s is paid.") % p,
        "promptpay-target": lambda: _(
            "That is not a PromptPay number: give a mobile number (10 digits), a national or tax"
            " id (13 digits) or an e-wallet id (15 digits)."
        ),
        "promptpay-all-zero": lambda: _("A PromptPay number is never all zeros."),
        "promptpay-mobile": lambda: _(
            "A mobile number is 10 digits starting with 06, 08 or 09: check the number."
        ),
        "promptpay-id-check": lambda: _(
            "That national or tax id's last digit does not match the others: check the 13 digits."
        ),
        "player-claimed": lambda: (
            _("%(name)s is already another member at this table: a host can change it.") % p
        ),
        "viewer-claims-nobody": lambda: _("A viewer watches the table and is none of its players."),
        "claim-change": lambda: _(
            "You are already another player at this table: a host can change it."
        ),
        "claim-host": lambda: _("Only a host can say which member is which player."),
        "unknown-member": lambda: _("That member is not in this group."),
        "event-removed-twice": lambda: (
            _("Event %(event)s of game %(n)s was already taken back.") % p
        ),
        "undo-too-late": lambda: (
            _("Game %(n)s was saved more than a minute ago: void and correct it instead.") % p
        ),
        "undo-not-last": lambda: (
            _("Game %(n)s is no longer the last game: void and correct it instead.") % p
        ),
        "undo-not-yours": lambda: (
            _("Only whoever saved game %(n)s, or a host, can take it back.") % p
        ),
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
        "invite-used": lambda: _(
            "This invite lets one phone in, and another phone has just used it: ask the host for"
            " a new one."
        ),
        "invite-removed": lambda: _(
            "You were removed from this group after this invite was made: ask a host to invite"
            " you again."
        ),
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
        "player-name-hidden": lambda: _(
            "This name holds a control character or one no phone can show."
        ),
        "group-name": lambda: _("A group needs a name: this one has nothing visible in it."),
        "invite-life": lambda: _("An invite lasts an hour to a week."),
        "owner": lambda: _("Only the group's owner can do that to the owner."),
        "owner-host": lambda: _("Hand the group on to one of its hosts."),
        "last-host": lambda: _("A group keeps at least one host."),
        "too-many-groups": lambda: _("Too many new groups from here: wait an hour."),
        "too-many-groups-account": lambda: _(
            "Too many new groups from this account: wait an hour."
        ),
        "too-many-signups": lambda: _("Too many new accounts from here: wait an hour."),
    }
    text = texts.get(error.code)
    return text() if text else str(error)


def _more_texts(p: dict[str, object]) -> dict[str, Callable[[], str]]:
    """The sentences of the rules' checks of a whole game, and of the services' refusals."""
    named = "name" in p
    return {
        "ace-in-run-not-played": lambda: _(
            "The house does not count an ace in a Q-K-A run as 10: leave aces in runs at 0."
        ),
        "aces-in-runs": lambda: (
            _("%(n)s aces in runs, but the cards on the table hold %(aces)s.") % p
        ),
        "card-unknown": lambda: _("%(card)s is not a card code (like C2, SQ, H10 or DA).") % p,
        "target-positive": lambda: _("The target must be more than 0."),
        "players-count": lambda: _("This game is not played by %(n)s players.") % p,
        "player-repeated": lambda: _("%(name)s is named twice.") % p,
        "count-missing": lambda: _("The count of %(names)s is missing.") % p,
        "house-negative": lambda: _("A house amount cannot be less than 0."),
        "difference-and-points": lambda: (
            _("Give %(name)s's points on the table and in hand, or their difference, not both.") % p
        ),
        "penalty-negative": lambda: _("%(name)s cannot have fewer than 0 penalties.") % p,
        "card-repeated": lambda: _("%(card)s is entered twice: a deck has one of each.") % p,
        "card-shared": lambda: (
            _("%(card)s is entered for both %(first)s and %(second)s: one player took it.") % p
        ),
        "house-no-point-cards": lambda: _(
            "A hand without point cards counts −50 or 0 by the house rules."
        ),
        "house-pig-in-shuan": lambda: _(
            "The pig in a Shuan counts −100 or +100 by the house rules."
        ),
        "stakes-positive": lambda: _("Every rate must be more than 0."),
        "stakes-order": lambda: _("The rates must go lose less ≤ lose medium ≤ lose more."),
        "fine-positive": lambda: (
            _("The fine must be more than 0 and at most %(n)s.") % p
            if "n" in p
            else _("The fine must be more than 0.")
        ),
        "tie-break-repeated": lambda: _("The order of the draw names a player twice."),
        "speto-negative": lambda: (
            _("%(name)s cannot hold fewer than 0 Spetos.") % p
            if named
            else _("A number of Spetos cannot be less than 0.")
        ),
        "close-not-allowed": lambda: _("Only a head or a Speto has close discarders."),
        "close-repeated": lambda: _("A close discarder is named twice."),
        "speto-count": lambda: _("A Speto event counts 1 or 2 Spetos."),
        "count-not-allowed": lambda: _("Only a Speto event has a number of Spetos."),
        "reason-not-allowed": lambda: _("Only a fine has a reason."),
        "totals-players": lambda: (
            _("The totals must name exactly the hand's players: %(names)s.") % p
        ),
        "not-host": lambda: _("Only a host of the group can do that."),
        "role": lambda: _("Choose one of the roles offered."),
        "import-not-empty": lambda: _(
            "This server already has a group: import into an empty database."
        ),
        "import-format": lambda: _("This file is not a group exported from Scorekeeper."),
        "import-version": lambda: (
            _("This export is of a version this server cannot read (it reads 1 to %(known)s).") % p
        ),
        "import-malformed": lambda: _("The export file is damaged: it cannot be read."),
        "import-audit": lambda: (
            _("Night %(n)s of the export does not add up.") % {"n": int(str(p["at"])) + 1}
        ),
        "import-tab-audit": lambda: (
            _("Settled tab %(n)s of the export does not add up.") % {"n": int(str(p["at"])) + 1}
        ),
        "dealer": lambda: (
            _("%(name)s is not seated.") % p if named else _("The dealer must be at the table.")
        ),
        "outcome-field": lambda: _("The result holds a field this app does not know."),
        "hand-field": lambda: _("The hand holds a field this app does not know."),
        "no-tie": lambda: _("Game %(n)s has no tie to resolve.") % p,
        "tie-break": lambda: _(
            "Give either the order of the high-card draw or the colour of the head card."
        ),
        "outcome-missing": lambda: _("A corrected game needs its result."),
        "scoresheet-ruleset": lambda: _("There is no such score sheet."),
        "player-group": lambda: (
            _("%(name)s is not a player of this group.") % p
            if named
            else _("Every player must be a player of this group.")
        ),
        "point-value": lambda: _("A point's value is 0 baht or more."),
        "point-value-most": lambda: _("A point is worth at most %(n)s baht.") % p,
        "stakes-most": lambda: _("A rate is at most %(n)s points.") % p,
        "fee-most": lambda: _("A table fee is at most %(n)s baht.") % p,
        "ledger-full": lambda: (
            _(
                "This would take the total of %(name)s past what the ledger holds (%(most)s"
                " baht): nothing was recorded."
            )
            % p
            if p.get("name")
            else _(
                "This would take the house's fees past what the ledger holds (%(most)s baht):"
                " nothing was recorded."
            )
            % p
        ),
        "not-scoresheet": lambda: _("This night is not a score sheet."),
        "player-name-long": lambda: _("A name has at most %(n)s letters.") % p,
        "position": lambda: _("There is no seat %(n)s.") % p,
        "not-paid": lambda: _("This transfer is not marked paid."),
        "stakes-missing": lambda: _("Give all three rates."),
        "stake-level": lambda: _("Choose one of the stake levels."),
        "mode": lambda: _("Choose how the night is settled up."),
        "not-seated": lambda: _("%(name)s is not at this table.") % p,
        "rounding": lambda: _("Round to 1, 5, 10 or 20 baht, or not at all."),
        "fee-per": lambda: _("A table fee is paid per game or per night."),
        "fee": lambda: _("A table fee is 0 baht or more, to the satang."),
        "cost-reason": lambda: _("Say what the cost was for."),
        "cost-reason-long": lambda: _("Say what the cost was for in at most %(n)s letters.") % p,
        "cost-baht": lambda: (
            _("A cost is more than 0 and at most %(n)s baht, to the satang.") % p
            if "n" in p
            else _("A cost is more than 0 baht, to the satang.")
        ),
        "cost-among": lambda: _("Choose who shares the cost with the one who paid."),
        "cost-seated": lambda: _("Everyone who paid or shares a cost must be at this table."),
        "cost-removed": lambda: _("This cost was already taken back."),
    }
