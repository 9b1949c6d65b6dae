from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="MusicLessonRoomOptions")



@_attrs_define
class MusicLessonRoomOptions:
    """ 
        Attributes:
            student (str): the booking student's account; the owner is the teacher
     """

    student: str





    def to_dict(self) -> dict[str, Any]:
        student = self.student


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "student": student,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        student = d.pop("student")

        music_lesson_room_options = cls(
            student=student,
        )

        return music_lesson_room_options

