from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="LiveQuizRoomOptionsQuestionsType0ItemType1")



@_attrs_define
class LiveQuizRoomOptionsQuestionsType0ItemType1:
    """ 
        Attributes:
            options (list[str]):
            question (str):
            right_answer (int):
     """

    options: list[str]
    question: str
    right_answer: int





    def to_dict(self) -> dict[str, Any]:
        options = self.options



        question = self.question

        right_answer = self.right_answer


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "options": options,
            "question": question,
            "rightAnswer": right_answer,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        options = cast(list[str], d.pop("options"))


        question = d.pop("question")

        right_answer = d.pop("rightAnswer")

        live_quiz_room_options_questions_type_0_item_type_1 = cls(
            options=options,
            question=question,
            right_answer=right_answer,
        )

        return live_quiz_room_options_questions_type_0_item_type_1

