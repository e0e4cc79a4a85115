"""Errors of the rules and services in the user's language, by their stable code.

Every code raised in scorekeeper/ has its sentence in TEXTS (tests/test_error_text.py reads
the codes from the source), formatted with the parameters the error carries. A "document" error, a
field of a game's JSON refused by the readers of rules/document.py, names the field's path
("points.เอ๋") and an English problem: both are told again here, the path in the table's words and
the problem by its pattern (the readers give no code of their own for it).
"""

import re
from collections.abc import Callable
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.models import Game
from scorekeeper.rules.errors import RuleError, TieUnresolved

# A sentence, or for a code whose sentence depends on its parameters, what makes it from them.
type Text = Promise | Callable[[dict[str, Any]], str]

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
PROBLEMS: list[tuple[re.Pattern[str], Promise]] = [
    (re.compile(r"must be a JSON (?:object|list)"), gettext_lazy("is not in the right form")),
    (re.compile(r"must be a player's name"), gettext_lazy("must be a player's name")),
    (re.compile(r"must be a whole number"), gettext_lazy("must be a whole number")),
    (re.compile(r"must be true or false"), gettext_lazy("must be yes or no")),
    (re.compile(r"must be at least (?P<n>-?[\d,]+)"), gettext_lazy("must be at least %(n)s")),
    (
        re.compile(r"must be at most (?P<n>[\d,]+) in size"),
        gettext_lazy("must be between minus %(n)s and %(n)s"),
    ),
    (re.compile(r"must be at most (?P<n>[\d,]+)"), gettext_lazy("must be at most %(n)s")),
    (re.compile(r"must be .+"), gettext_lazy("is not a game this app keeps")),
    (re.compile(r".+ is not one of .+"), gettext_lazy("is not one of the choices")),
    (
        re.compile(r".+ is not a card code like C2, SQ, H10 or DA"),
        gettext_lazy("is not a card code (like C2, SQ, H10 or DA)"),
    ),
    (
        re.compile(r"give table and hand, or difference, not both"),
        gettext_lazy("takes the points on the table and in hand, or their difference, not both"),
    ),
    (
        re.compile(r"needs the table given as a list of cards"),
        gettext_lazy("needs the cards on the table, one by one"),
    ),
    (
        re.compile(r"give a list of players or .+"),
        gettext_lazy("takes the order of the draw or the colour of the head card"),
    ),
    (
        re.compile(r"give either a level .+ or stakes"),
        gettext_lazy("takes a stake level or three rates, not both"),
    ),
    (re.compile(r"is missing"), gettext_lazy("is missing")),
    (re.compile(r"(?P<key>\w+) is missing"), gettext_lazy("has no %(key)s")),
    (re.compile(r"needs a player and a kind"), gettext_lazy("needs who knocked and how")),
    (re.compile(r"needs a type and a player"), gettext_lazy("needs its kind and its player")),
    (re.compile(r"needs a player"), gettext_lazy("needs a player")),
    (re.compile(r"needs a knock"), gettext_lazy("needs a knocker")),
    (re.compile(r"unknown field .+"), gettext_lazy("has a field this app does not know")),
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
            return str(text) % params if params else str(text)
    return _("is not as expected")


def document_text(p: dict[str, Any]) -> str:
    """Tell a refused field of a game's JSON: its path in the table's words, then its problem."""
    return _("%(field)s %(problem)s") % {
        "field": field_text(str(p["where"])),
        "problem": problem_text(str(p["problem"])),
    }


# Each code's sentence, formatted with the error's own parameters; a function where the sentence
# depends on which parameters came or computes one (a Game's status, a night's number from 1).
TEXTS: dict[str, Text] = {
    "document": document_text,
    "unknown-player": gettext_lazy("%(name)s is not at this table."),
    "knocker-fool": gettext_lazy("The knocker cannot be the fool discarder."),
    "knocker-total": gettext_lazy("The knocker cannot pay the total."),
    "knocker-color": gettext_lazy("The knocker's colour goes in the knock kind, not here."),
    "knocker-speto-held": gettext_lazy(
        "The knocker's Spetos go under “Spetos the knocker knocked with”."
    ),
    "points-missing": gettext_lazy("Points are missing for %(names)s."),
    "points-and-levels": gettext_lazy("Enter points or levels, not both."),
    "levels-incomplete": gettext_lazy("Give a level for every loser: %(names)s."),
    "levels-without-knock": gettext_lazy(
        "Levels are only for knock games: enter everyone's points."
    ),
    "fool-without-knock": gettext_lazy("Without a knocker there is no fool."),
    "total-without-knock": gettext_lazy("Without a knocker nobody pays the total."),
    "too-many-spetos": gettext_lazy("That makes %(n)s Spetos, but the deck has only two (2♣, Q♠)."),
    "face-down-speto-not-held": gettext_lazy(
        "A face-down Speto is one the knocker knocked with: set that count to at least 1."
    ),
    "head-twice": gettext_lazy("There is only one head card: the head was already picked up."),
    "show-twice": gettext_lazy("Only one player can show both Spetos."),
    "close-self": gettext_lazy("%(name)s cannot close-discard to themselves."),
    "events-after-fine": gettext_lazy("A fine ends the game: nothing can follow it."),
    "fine-with-result": gettext_lazy("A fine ended this game: it has no result."),
    "game-in-play": gettext_lazy("Finish or void the game in play first."),
    "game-recorded": lambda p: (
        _("Game %(n)s was already recorded by %(who)s at %(at)s.")
        % {**p, "who": p["who"] or _("another phone")}
    ),
    "game-voided": gettext_lazy("Game %(n)s was voided."),
    "no-such-event": gettext_lazy("Game %(n)s has no event %(event)s."),
    "received-twice": gettext_lazy("This transfer is already received."),
    "paid-at-table-twice": gettext_lazy(
        "Game %(n)s has nothing left to pay at the table: it was paid already."
    ),
    "reopen-host": gettext_lazy("Only a host can reopen a transfer already received."),
    "carry-paid": gettext_lazy("This transfer is already marked paid: there is nothing to carry."),
    "carried-twice": gettext_lazy("This transfer is already carried to next time."),
    "not-carried": gettext_lazy("This transfer is not carried to next time."),
    "pay-carried": gettext_lazy(
        "This transfer is carried to next time: mark it paid where it is owed, on a later"
        " night or the group's page."
    ),
    "debt-paid": gettext_lazy("This debt is already marked paid."),
    "debt-not-paid": gettext_lazy("This debt is not marked paid."),
    "debt-night": gettext_lazy("That night belongs to another group."),
    "debt-taken-back": gettext_lazy("This debt was taken back: nothing is owed."),
    "debt-in-tab": gettext_lazy(
        "This debt was settled in the tab: a host takes the whole tab back, or pay its transfers."
    ),
    "tab-host": gettext_lazy("Only a host settles the tab or takes it back."),
    "tab-empty": gettext_lazy("Nothing is carried across nights: there is no tab to settle."),
    "tab-taken-back": gettext_lazy("This tab was already taken back."),
    "tab-paid": gettext_lazy(
        "A transfer of this tab is marked paid: mark it unpaid first, then take the tab back."
    ),
    "promptpay-not-yours": gettext_lazy("Only %(name)s can save where %(name)s is paid."),
    "promptpay-target": gettext_lazy(
        "That is not a PromptPay number: give a mobile number (10 digits), a national or tax"
        " id (13 digits) or an e-wallet id (15 digits)."
    ),
    "promptpay-all-zero": gettext_lazy("A PromptPay number is never all zeros."),
    "promptpay-mobile": gettext_lazy(
        "A mobile number is 10 digits starting with 06, 08 or 09: check the number."
    ),
    "promptpay-id-check": gettext_lazy(
        "That national or tax id's last digit does not match the others: check the 13 digits."
    ),
    "player-claimed": gettext_lazy(
        "%(name)s is already another member at this table: a host can change it."
    ),
    "viewer-claims-nobody": gettext_lazy("A viewer watches the table and is none of its players."),
    "claim-change": gettext_lazy(
        "You are already another player at this table: a host can change it."
    ),
    "claim-host": gettext_lazy("Only a host can say which member is which player."),
    "unknown-member": gettext_lazy("That member is not in this group."),
    "event-removed-twice": gettext_lazy("Event %(event)s of game %(n)s was already taken back."),
    "undo-too-late": gettext_lazy(
        "Game %(n)s was saved more than a minute ago: void and correct it instead."
    ),
    "undo-not-last": gettext_lazy(
        "Game %(n)s is no longer the last game: void and correct it instead."
    ),
    "undo-not-yours": gettext_lazy("Only whoever saved game %(n)s, or a host, can take it back."),
    "game-changed": lambda p: (
        _("Game %(n)s has changed since this page was opened: it is now %(state)s.")
        % {**p, "state": Game.Status(str(p["state"])).label}
    ),
    "game-started": gettext_lazy(
        "Game %(n)s was already started by another phone: here is the table as it is now."
    ),
    "too-many-tries": gettext_lazy("Too many codes were tried from this phone: wait ten minutes."),
    "invite-unknown": gettext_lazy("That invite is unknown or has expired."),
    "invite-used": gettext_lazy(
        "This invite lets one phone in, and another phone has just used it: ask the host for"
        " a new one."
    ),
    "invite-removed": gettext_lazy(
        "You were removed from this group after this invite was made: ask a host to invite"
        " you again."
    ),
    "key-reused": gettext_lazy("This form was already used: reload the page."),
    "night-closed": gettext_lazy("This night is closed."),
    "last-drawer": gettext_lazy("A stock-out game needs who drew the last card (rule 11)."),
    "tie-needs-draw": gettext_lazy(
        "Game %(n)s has a tie of three or more: a high-card draw settles it, not the head card."
    ),
    "tie-still-open": gettext_lazy("That does not settle the tie of game %(n)s."),
    "games-open": gettext_lazy(
        "Game %(n)s is not settled yet: finish it, resolve its tie or void it."
    ),
    "paid-twice": gettext_lazy("This transfer is already marked paid."),
    "voided-twice": gettext_lazy("Game %(n)s is already voided."),
    "game-never-started": gettext_lazy(
        "The game this was entered for was never started: its start was refused."
    ),
    "corrected-twice": gettext_lazy("Game %(n)s is already corrected."),
    "not-voided": gettext_lazy("Void game %(n)s before correcting it."),
    "level-sleeper": gettext_lazy(
        "%(name)s never collected or held one suit only: rule 60 makes them lose more."
    ),
    "level-fool-light-color": gettext_lazy(
        "%(name)s fooled a light-colour knock: rule 60 makes them lose more."
    ),
    "seats": gettext_lazy("Knock Dummy needs four different players."),
    # The score sheets: classic Dummy to 500 and Gong Zhu.
    "scoresheet-players": gettext_lazy("This game needs %(fewest)s to %(most)s different players."),
    "scoresheet-money": gettext_lazy("Classic Dummy keeps score only: it has no point value."),
    "hand-recorded": gettext_lazy(
        "Hand %(n)s was already recorded by %(who)s at %(at)s: here is the sheet."
    ),
    "match-over": lambda p: (
        _("The match is over: %(names)s won. Close it, or void a hand to go on.") % p
        if "names" in p
        else _("The match is over: close it, or void a hand to go on.")
    ),
    "points-fives": gettext_lazy(
        "%(name)s's points must come in fives: every card counts 5, 10, 15 or 50."
    ),
    "points-range": gettext_lazy(
        "%(name)s's points cannot be more than the whole deck's %(most)s."
    ),
    "knocker-hand": gettext_lazy(
        "%(name)s knocked, so holds no cards: leave their hand empty (the knock card is the bonus)."
    ),
    "knocker-collected": gettext_lazy(
        "A knocker who never collected knocked dark: choose a dark knock instead."
    ),
    "sleeper-table": gettext_lazy("%(name)s never collected, so laid nothing on the table."),
    "head-sleeper": gettext_lazy(
        "%(name)s picked up the head card, so collected: they cannot be a dark sleeper."
    ),
    "head-close-twice": gettext_lazy("There is one head card: one close discard of it at most."),
    "head-close-without-head": gettext_lazy(
        "%(name)s's close discard of the head needs another player to have picked it up."
    ),
    "speto-defence-twice": gettext_lazy(
        "Only the first discard of a hand can be a Speto-defence discard."
    ),
    "house-not-played": gettext_lazy("The house does not play that rule (its amount is 0)."),
    "card-missing": gettext_lazy(
        "Nobody took %(cards)s: in a four-player deal every point card is taken."
    ),
    "cards-missing": gettext_lazy(
        "Nobody took %(cards)s: a three-player deal leaves out one card at most."
    ),
    "hub": gettext_lazy("Choose who everyone settles with."),
    "points-deck": gettext_lazy(
        "The counts add up to %(n)s points laid and held: the whole deck has %(most)s."
    ),
    "speto-penalty-count": gettext_lazy(
        "%(n)s Speto penalties of one kind, but the deck has only %(most)s Spetos."
    ),
    # Names, invites and hosts.
    "player-name": gettext_lazy("A player needs a name: this one has nothing visible in it."),
    "player-name-hidden": gettext_lazy(
        "This name holds a control character or one no phone can show."
    ),
    "group-name": gettext_lazy("A group needs a name: this one has nothing visible in it."),
    "invite-life": gettext_lazy("An invite lasts an hour to a week."),
    "owner": gettext_lazy("Only the group's owner can do that to the owner."),
    "owner-host": gettext_lazy("Hand the group on to one of its hosts."),
    "last-host": gettext_lazy("A group keeps at least one host."),
    "too-many-groups": gettext_lazy("Too many new groups from here: wait an hour."),
    "too-many-groups-account": gettext_lazy("Too many new groups from this account: wait an hour."),
    "too-many-signups": gettext_lazy("Too many new accounts from here: wait an hour."),
    # The rules' checks of a whole game, and the services' refusals.
    "ace-in-run-not-played": gettext_lazy(
        "The house does not count an ace in a Q-K-A run as 10: leave aces in runs at 0."
    ),
    "aces-in-runs": gettext_lazy("%(n)s aces in runs, but the cards on the table hold %(aces)s."),
    "card-unknown": gettext_lazy("%(card)s is not a card code (like C2, SQ, H10 or DA)."),
    "target-positive": gettext_lazy("The target must be more than 0."),
    "players-count": gettext_lazy("This game is not played by %(n)s players."),
    "player-repeated": gettext_lazy("%(name)s is named twice."),
    "count-missing": gettext_lazy("The count of %(names)s is missing."),
    "house-negative": gettext_lazy("A house amount cannot be less than 0."),
    "difference-and-points": gettext_lazy(
        "Give %(name)s's points on the table and in hand, or their difference, not both."
    ),
    "penalty-negative": gettext_lazy("%(name)s cannot have fewer than 0 penalties."),
    "card-repeated": gettext_lazy("%(card)s is entered twice: a deck has one of each."),
    "card-shared": gettext_lazy(
        "%(card)s is entered for both %(first)s and %(second)s: one player took it."
    ),
    "house-no-point-cards": gettext_lazy(
        "A hand without point cards counts −50 or 0 by the house rules."
    ),
    "house-pig-in-shuan": gettext_lazy(
        "The pig in a Shuan counts −100 or +100 by the house rules."
    ),
    "stakes-positive": gettext_lazy("Every rate must be more than 0."),
    "stakes-order": gettext_lazy("The rates must go lose less ≤ lose medium ≤ lose more."),
    "fine-positive": lambda p: (
        _("The fine must be more than 0 and at most %(n)s.") % p
        if "n" in p
        else _("The fine must be more than 0.")
    ),
    "tie-break-repeated": gettext_lazy("The order of the draw names a player twice."),
    "speto-negative": lambda p: (
        _("%(name)s cannot hold fewer than 0 Spetos.") % p
        if "name" in p
        else _("A number of Spetos cannot be less than 0.")
    ),
    "close-not-allowed": gettext_lazy("Only a head or a Speto has close discarders."),
    "close-repeated": gettext_lazy("A close discarder is named twice."),
    "speto-count": gettext_lazy("A Speto event counts 1 or 2 Spetos."),
    "count-not-allowed": gettext_lazy("Only a Speto event has a number of Spetos."),
    "reason-not-allowed": gettext_lazy("Only a fine has a reason."),
    "totals-players": gettext_lazy("The totals must name exactly the hand's players: %(names)s."),
    "not-host": gettext_lazy("Only a host of the group can do that."),
    "role": gettext_lazy("Choose one of the roles offered."),
    "import-not-empty": gettext_lazy(
        "This server already has a group: import into an empty database."
    ),
    "import-format": gettext_lazy("This file is not a group exported from Scorekeeper."),
    "import-version": gettext_lazy(
        "This export is of a version this server cannot read (it reads 1 to %(known)s)."
    ),
    "import-malformed": gettext_lazy("The export file is damaged: it cannot be read."),
    "import-audit": lambda p: (
        _("Night %(n)s of the export does not add up.") % {"n": int(str(p["at"])) + 1}
    ),
    "import-tab-audit": lambda p: (
        _("Settled tab %(n)s of the export does not add up.") % {"n": int(str(p["at"])) + 1}
    ),
    "dealer": lambda p: (
        _("%(name)s is not seated.") % p if "name" in p else _("The dealer must be at the table.")
    ),
    "outcome-field": gettext_lazy("The result holds a field this app does not know."),
    "hand-field": gettext_lazy("The hand holds a field this app does not know."),
    "no-tie": gettext_lazy("Game %(n)s has no tie to resolve."),
    "tie-break": gettext_lazy(
        "Give either the order of the high-card draw or the colour of the head card."
    ),
    "outcome-missing": gettext_lazy("A corrected game needs its result."),
    "scoresheet-ruleset": gettext_lazy("There is no such score sheet."),
    "player-group": lambda p: (
        _("%(name)s is not a player of this group.") % p
        if "name" in p
        else _("Every player must be a player of this group.")
    ),
    "point-value": gettext_lazy("A point's value is 0 baht or more."),
    "point-value-most": gettext_lazy("A point is worth at most %(n)s baht."),
    "stakes-most": gettext_lazy("A rate is at most %(n)s points."),
    "fee-most": gettext_lazy("A table fee is at most %(n)s baht."),
    "ledger-full": lambda p: (
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
    "not-scoresheet": gettext_lazy("This night is not a score sheet."),
    "player-name-long": gettext_lazy("A name has at most %(n)s letters."),
    "position": gettext_lazy("There is no seat %(n)s."),
    "not-paid": gettext_lazy("This transfer is not marked paid."),
    "stakes-missing": gettext_lazy("Give all three rates."),
    "stake-level": gettext_lazy("Choose one of the stake levels."),
    "mode": gettext_lazy("Choose how the night is settled up."),
    "not-seated": gettext_lazy("%(name)s is not at this table."),
    "rounding": gettext_lazy("Round to 1, 5, 10 or 20 baht, or not at all."),
    "fee-per": gettext_lazy("A table fee is paid per game or per night."),
    "fee": gettext_lazy("A table fee is 0 baht or more, to the satang."),
    "cost-reason": gettext_lazy("Say what the cost was for."),
    "cost-reason-long": gettext_lazy("Say what the cost was for in at most %(n)s letters."),
    "cost-baht": lambda p: (
        _("A cost is more than 0 and at most %(n)s baht, to the satang.") % p
        if "n" in p
        else _("A cost is more than 0 baht, to the satang.")
    ),
    "cost-among": gettext_lazy("Choose who shares the cost with the one who paid."),
    "cost-seated": gettext_lazy("Everyone who paid or shares a cost must be at this table."),
    "cost-removed": gettext_lazy("This cost was already taken back."),
}


def error_text(error: RuleError) -> str:
    """Return the error as a sentence in the active language."""
    if isinstance(error, TieUnresolved):
        if error.black and error.red:
            return _(
                "%(a)s and %(b)s tie on points. The colour of the next head card decides (rule 65):"
                " black for %(black)s, red for %(red)s. Or give the order of a high-card draw."
            ) % {"a": error.tied[0], "b": error.tied[1], "black": error.black, "red": error.red}
        return _(
            "%(names)s tie on points: a high-card draw decides the order (rules 57-58, 66)."
        ) % {"names": ", ".join(error.tied)}
    text = TEXTS.get(error.code)
    if text is None:
        return str(error)
    if isinstance(text, Promise):
        return str(text) % error.params
    return text(error.params)
