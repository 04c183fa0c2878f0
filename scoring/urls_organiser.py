from django.urls import path

from scoring import views_organiser as views

urlpatterns = [
    path("<slug:slug>/sessions/<int:number>/scoresheets.pdf", views.scoresheets, name="scoresheets"),
]
