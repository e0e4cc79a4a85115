from django.urls import include, path, register_converter

from scorekeeper.converters import Id
from scorekeeper.views import (
    accounts,
    app,
    exports,
    games,
    groups,
    members,
    offline,
    scoresheet,
    table,
)

register_converter(Id, "id")

urlpatterns = [
    path("", groups.index, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service-worker"),
    path("offline", app.offline, name="offline"),
    path("accounts/login", accounts.SignIn.as_view(), name="login"),
    path("accounts/logout", accounts.SignOut.as_view(), name="logout"),
    path("accounts/claim", accounts.claim, name="claim"),
    path("accounts/signup", accounts.signup, name="signup"),
    path("groups/new", groups.create, name="group-create"),
    path("g/<id:group_id>/", groups.detail, name="group"),
    path("g/<id:group_id>/sessions/new", groups.session_open, name="session-open"),
    path(
        "g/<id:group_id>/race/<slug:ruleset>/new",
        scoresheet.scoresheet_open,
        name="scoresheet-open",
    ),
    path("g/<id:group_id>/members", members.members, name="members"),
    path(
        "g/<id:group_id>/members/<id:membership_id>/remove",
        members.member_remove,
        name="member-remove",
    ),
    path(
        "g/<id:group_id>/invites/<id:invite_id>/revoke",
        members.invite_revoke,
        name="invite-revoke",
    ),
    path(
        "g/<id:group_id>/members/<id:membership_id>/owner",
        members.owner_hand_over,
        name="owner-hand-over",
    ),
    path("g/<id:group_id>/audit", members.audit, name="audit"),
    path("g/<id:group_id>/export.<str:kind>", exports.group_export, name="group-export"),
    path("g/<id:group_id>/players/<id:player_id>", groups.player, name="player"),
    path("join", members.join, name="join"),
    path("join/<str:token>", members.join_link, name="join-link"),
    path("s/<id:session_id>/", table.table, name="table"),
    path("s/<id:session_id>/games/start", table.game_start, name="game-start"),
    path("s/<id:session_id>/seats", table.seats, name="seats"),
    path("s/<id:session_id>/settle", table.settle_up, name="settle"),
    path("s/<id:session_id>/summary", table.summary, name="summary"),
    path("s/<id:session_id>/history", table.history, name="history"),
    path("s/<id:session_id>/export.<str:kind>", exports.session_export, name="session-export"),
    path(
        "s/<id:session_id>/transfers/<id:transfer_id>/paid",
        table.transfer_paid,
        name="transfer-paid",
    ),
    path("s/<id:session_id>/games/<id:game_id>/", games.detail, name="game"),
    path(
        "s/<id:session_id>/games/<id:game_id>/events/<slug:event_type>",
        table.event_add,
        name="event-add",
    ),
    path("s/<id:session_id>/games/<id:game_id>/finish", games.finish, name="game-finish"),
    # A game started without a connection, by the key its phone made (views/offline.py).
    path("s/<id:session_id>/games/key/<slug:key>/", offline.game, name="offline-game"),
    path(
        "s/<id:session_id>/games/key/<slug:key>/events/<slug:event_type>",
        offline.event_add,
        name="offline-event",
    ),
    path("s/<id:session_id>/games/key/<slug:key>/finish", offline.finish, name="offline-finish"),
    path("s/<id:session_id>/games/<id:game_id>/preview", games.preview, name="game-preview"),
    path("s/<id:session_id>/games/<id:game_id>/void", games.void, name="game-void"),
    path("s/<id:session_id>/games/<id:game_id>/tie", games.resolve_tie, name="game-tie"),
    path("s/<id:session_id>/games/<id:game_id>/correct", games.correct, name="game-correct"),
    path("s/<id:session_id>/hands/new", scoresheet.hand_new, name="scoresheet-hand-new"),
    path("s/<id:session_id>/hands/preview", scoresheet.hand_preview, name="scoresheet-preview"),
    path("s/<id:session_id>/hands/<id:game_id>/", scoresheet.hand, name="scoresheet-hand"),
    path(
        "s/<id:session_id>/hands/<id:game_id>/void",
        scoresheet.hand_void,
        name="scoresheet-hand-void",
    ),
    path("s/<id:session_id>/race/settle", scoresheet.settle, name="scoresheet-settle"),
    path("s/<id:session_id>/race/history", scoresheet.history, name="scoresheet-history"),
    path(
        "s/<id:session_id>/race/transfers/<id:transfer_id>/paid",
        scoresheet.transfer_paid,
        name="scoresheet-paid",
    ),
]
