from django.urls import path

from scorekeeper.views import home

urlpatterns = [
    path("", home.index, name="home"),
]
