from django.contrib.auth.views import LogoutView
from django.urls import include, path

from scorekeeper.views import accounts, app, exports, games, groups, members, table

urlpatterns = [
    path("", groups.index, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service-worker"),
    path("offline", app.offline, name="offline"),
    path("accounts/login", accounts.SignIn.as_view(), name="login"),
    path("accounts/logout", LogoutView.as_view(), name="logout"),
    path("accounts/signup", accounts.signup, name="signup"),
    path("groups/new", groups.create, name="group-create"),
    path("g/<int:group_id>/", groups.detail, name="group"),
    path("g/<int:group_id>/sessions/new", groups.session_open, name="session-open"),
    path("g/<int:group_id>/members", members.members, name="members"),
    path(
        "g/<int:group_id>/members/<int:membership_id>/remove",
        members.member_remove,
        name="member-remove",
    ),
    path("g/<int:group_id>/audit", members.audit, name="audit"),
    path("g/<int:group_id>/export.<str:kind>", exports.group_export, name="group-export"),
    path("g/<int:group_id>/players/<int:player_id>", groups.player, name="player"),
    path("join", members.join, name="join"),
    path("join/<str:token>", members.join_link, name="join-link"),
    path("s/<int:session_id>/", table.table, name="table"),
    path("s/<int:session_id>/games/start", table.game_start, name="game-start"),
    path("s/<int:session_id>/events/<slug:event_type>", table.event_add, name="event-add"),
    path("s/<int:session_id>/seats", table.seats, name="seats"),
    path("s/<int:session_id>/settle", table.settle_up, name="settle"),
    path("s/<int:session_id>/summary", table.summary, name="summary"),
    path("s/<int:session_id>/history", table.history, name="history"),
    path("s/<int:session_id>/export.<str:kind>", exports.session_export, name="session-export"),
    path(
        "s/<int:session_id>/transfers/<int:transfer_id>/paid",
        table.transfer_paid,
        name="transfer-paid",
    ),
    path("s/<int:session_id>/games/<int:game_id>/", games.detail, name="game"),
    path("s/<int:session_id>/games/<int:game_id>/finish", games.finish, name="game-finish"),
    path("s/<int:session_id>/games/<int:game_id>/preview", games.preview, name="game-preview"),
    path("s/<int:session_id>/games/<int:game_id>/void", games.void, name="game-void"),
    path("s/<int:session_id>/games/<int:game_id>/tie", games.resolve_tie, name="game-tie"),
    path("s/<int:session_id>/games/<int:game_id>/correct", games.correct, name="game-correct"),
]
