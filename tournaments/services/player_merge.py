"""Two records of one person made one, and undone: the organiser finds that "Chen Wei" of one event and
"Wei Chen" of another are the same player (the site links events by EMA number, and one record lacked it).

A merge moves every row that points at the merged record (its registrations, and any other model's
foreign key to ``players.Player``) to the kept record, stores in a ``players.PlayerMerge`` what it moved,
and writes an entry in the audit log of every event either record played (each bumps that event's public
pages: the merged record's events now show the kept record's name). Undoing it puts back exactly the rows
it moved.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext

from players.models import Player, PlayerMerge
from tournaments.audit import AuditAction, User, acting, audit
from tournaments.errors import ServiceError
from tournaments.models import EventRole, Registration, Role, Tournament


def events_of(*players: Player) -> list[Tournament]:
    """Every event any of ``players`` is registered in, drafts and archived events included."""
    return list(Tournament.objects.filter(registrations__player__in=players).distinct().order_by("pk"))


def may_merge(user: AbstractBaseUser | AnonymousUser, *players: Player) -> bool:
    """A superuser, or an organiser of every event either record played: a merge changes the name every
    one of those events shows for the player (and which cross-event page their results join), so no
    organiser may rewrite another organiser's event; an organiser of only one of the events asks one of
    the site's administrators."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    events = {event.pk for event in events_of(*players)}
    organised = set(
        EventRole.objects.filter(user=user.pk, role=Role.ORGANISER, tournament__in=events).values_list(
            "tournament_id", flat=True
        )
    )
    return bool(events) and events <= organised


def _pointing_at_player() -> list[tuple[type[models.Model], str]]:
    """Every (model, field) with a foreign key to a player, the merge record's own excepted: a model added
    later (a registration request, a rating) moves with the merge without a change here."""
    return [
        (relation.related_model, relation.field.name)
        for relation in Player._meta.related_objects
        if isinstance(relation.related_model, type)  # a model class, never "self" once the apps are loaded
        and relation.related_model is not PlayerMerge
        and (relation.one_to_many or relation.one_to_one)
    ]


def _label(model: type[models.Model], field: str) -> str:
    return f"{model._meta.label_lower}.{field}"


def _move(moved: dict[str, list[int]], to: Player) -> None:
    """Point the rows ``moved`` names at ``to``; a unique rule broken (both records in one event) is
    refused, with nothing written."""
    by_label = {_label(model, field): (model, field) for model, field in _pointing_at_player()}
    try:
        with transaction.atomic():
            for label, ids in moved.items():
                model, field = by_label[label]
                model._default_manager.filter(pk__in=ids).update(**{field: to})
    except IntegrityError as error:
        raise ServiceError(
            gettext("Both records are in the same event: they were two players there."), code="same_event"
        ) from error


def _locked(*ids: int) -> dict[int, Player]:
    return {player.pk: player for player in Player.objects.select_for_update().filter(pk__in=sorted(ids))}


def _merged_into(player: Player) -> PlayerMerge | None:
    return PlayerMerge.objects.filter(merged=player, undone_at=None).select_related("kept").first()


def _check_merge(kept: Player, merged: Player) -> None:
    if kept.pk == merged.pk:
        raise ServiceError(gettext("Choose two different records."), code="same_record")
    for player in (kept, merged):
        earlier = _merged_into(player)
        if earlier is not None:
            raise ServiceError(
                gettext("%(name)s was already merged into %(kept)s (#%(id)s).")
                % {"name": player.name, "kept": earlier.kept.name, "id": earlier.kept.pk},
                code="already_merged",
            )
    if kept.ema_id and merged.ema_id and kept.ema_id != merged.ema_id:
        raise ServiceError(
            gettext(
                "The records have two EMA numbers (%(kept)s and %(merged)s): an EMA number belongs to one "
                "person. Correct the wrong number first."
            )
            % {"kept": kept.ema_id, "merged": merged.ema_id},
            code="two_ema_ids",
        )
    shared = Tournament.objects.filter(registrations__player=kept).filter(registrations__player=merged)
    if shared.exists():
        raise ServiceError(
            gettext("Both records are in the same event: they were two players there."), code="same_event"
        )


def _log(
    events: list[Tournament],
    action: AuditAction,
    summary: str,
    acting_user: User,
    *,
    merge: int,
    players: list[int],
) -> None:
    for event in events:
        codes = list(
            Registration.objects.filter(tournament=event, player_id__in=players).values_list(
                "code", flat=True
            )
        )
        audit(event, acting_user, action, summary, codes=codes, merge=merge, players=players)


@transaction.atomic
def merge_players(kept: Player, merged: Player, *, acting_user: User) -> PlayerMerge:
    """Make ``merged`` part of ``kept``: its registrations (every row pointing at it) move, and ``kept``
    takes its EMA number when it has none. Refused when both played one event (two people there), when
    they hold two EMA numbers, or when either was already merged; allowed to :func:`may_merge`'s users
    (the views ask). An archived event is included: a merge moves whose results they are, not the results."""
    players = _locked(kept.pk, merged.pk)
    if len(players) < 2 and kept.pk != merged.pk:
        raise ServiceError(gettext("No such player record."), code="no_such_player")
    kept, merged = players[kept.pk], players[merged.pk]
    _check_merge(kept, merged)
    events = events_of(kept, merged)
    moved = {
        _label(model, field): list(
            model._default_manager.filter(**{field: merged}).values_list("pk", flat=True)
        )
        for model, field in _pointing_at_player()
    }
    moved = {label: ids for label, ids in moved.items() if ids}
    details: dict[str, list[str]] = {}
    if merged.ema_id and not kept.ema_id:
        details["ema_id"] = [kept.ema_id, merged.ema_id]
        Player.objects.filter(pk=merged.pk).update(ema_id="")  # one number, one record (unique)
        Player.objects.filter(pk=kept.pk).update(ema_id=merged.ema_id)
    _move(moved, kept)
    merge = PlayerMerge.objects.create(
        kept=kept, merged=merged, moved=moved, details=details, created_by=acting(acting_user)
    )
    _log(
        events,
        AuditAction.MERGE_PLAYERS,
        f"Merged the player record {merged.name} (#{merged.pk}) into {kept.name} (#{kept.pk})",
        acting_user,
        merge=merge.pk,
        players=[kept.pk, merged.pk],
    )
    return merge


@transaction.atomic
def undo_merge(merge: PlayerMerge, *, acting_user: User) -> PlayerMerge:
    """Put back what ``merge`` moved: the rows it moved that still point at the kept record go back to
    the merged one, and the EMA number it gave the kept record goes back too. Refused when the kept record
    was merged into a third one since (undo that first)."""
    merge = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
    if merge.undone_at is not None:
        raise ServiceError(gettext("This merge was already undone."), code="already_undone")
    players = _locked(merge.kept_id, merge.merged_id)
    kept, merged = players[merge.kept_id], players[merge.merged_id]
    later = _merged_into(kept)
    if later is not None:
        raise ServiceError(
            gettext("%(name)s was merged into %(kept)s since: undo that merge first.")
            % {"name": kept.name, "kept": later.kept.name},
            code="merged_since",
        )
    events = events_of(kept)
    ema = merge.details.get("ema_id")
    if ema:
        before, taken = ema
        if Player.objects.filter(ema_id=taken).exclude(pk=kept.pk).exists():
            raise ServiceError(
                gettext("EMA number %(ema_id)s belongs to another record now.") % {"ema_id": taken},
                code="ema_id_taken",
            )
        if kept.ema_id == taken:
            Player.objects.filter(pk=kept.pk).update(ema_id=before)
        Player.objects.filter(pk=merged.pk).update(ema_id=taken)
    by_label = {_label(model, field): (model, field) for model, field in _pointing_at_player()}
    back = {
        label: list(
            by_label[label][0]
            ._default_manager.filter(pk__in=ids, **{by_label[label][1]: kept})
            .values_list("pk", flat=True)
        )
        for label, ids in merge.moved.items()
        if label in by_label
    }
    _move(back, merged)
    merge.undone_at = timezone.now()
    merge.undone_by = acting(acting_user)
    merge.save(update_fields=["undone_at", "undone_by"])
    _log(
        events,
        AuditAction.UNDO_MERGE_PLAYERS,
        f"Undid the merge of {merged.name} (#{merged.pk}) into {kept.name} (#{kept.pk})",
        acting_user,
        merge=merge.pk,
        players=[kept.pk, merged.pk],
    )
    return merge
