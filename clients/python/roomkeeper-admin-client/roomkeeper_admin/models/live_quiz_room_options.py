from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.live_quiz_room_options_questions_type_0_item_type_0 import LiveQuizRoomOptionsQuestionsType0ItemType0
  from ..models.live_quiz_room_options_questions_type_0_item_type_1 import LiveQuizRoomOptionsQuestionsType0ItemType1
  from ..models.live_quiz_room_options_questions_type_0_item_type_2 import LiveQuizRoomOptionsQuestionsType0ItemType2
  from ..models.live_quiz_room_options_questions_type_0_item_type_3 import LiveQuizRoomOptionsQuestionsType0ItemType3
  from ..models.live_quiz_room_options_questions_type_0_item_type_4 import LiveQuizRoomOptionsQuestionsType0ItemType4





T = TypeVar("T", bound="LiveQuizRoomOptions")



@_attrs_define
class LiveQuizRoomOptions:
    """ 
        Attributes:
            bonus (float): the prize, paid in whole cents
            device_id (str): the host's device; one open game each
            password (str): the host's password
            questions (list[LiveQuizRoomOptionsQuestionsType0ItemType0 | LiveQuizRoomOptionsQuestionsType0ItemType1 |
                LiveQuizRoomOptionsQuestionsType0ItemType2 | LiveQuizRoomOptionsQuestionsType0ItemType3 |
                LiveQuizRoomOptionsQuestionsType0ItemType4] | None | Unset): the game's questions; the built-in bank when absent
                or null
     """

    bonus: float
    device_id: str
    password: str
    questions: list[LiveQuizRoomOptionsQuestionsType0ItemType0 | LiveQuizRoomOptionsQuestionsType0ItemType1 | LiveQuizRoomOptionsQuestionsType0ItemType2 | LiveQuizRoomOptionsQuestionsType0ItemType3 | LiveQuizRoomOptionsQuestionsType0ItemType4] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.live_quiz_room_options_questions_type_0_item_type_0 import LiveQuizRoomOptionsQuestionsType0ItemType0 # noqa: PLC0415
        from ..models.live_quiz_room_options_questions_type_0_item_type_1 import LiveQuizRoomOptionsQuestionsType0ItemType1 # noqa: PLC0415
        from ..models.live_quiz_room_options_questions_type_0_item_type_2 import LiveQuizRoomOptionsQuestionsType0ItemType2 # noqa: PLC0415
        from ..models.live_quiz_room_options_questions_type_0_item_type_3 import LiveQuizRoomOptionsQuestionsType0ItemType3 # noqa: PLC0415
        from ..models.live_quiz_room_options_questions_type_0_item_type_4 import LiveQuizRoomOptionsQuestionsType0ItemType4 # noqa: PLC0415
        bonus = self.bonus

        device_id = self.device_id

        password = self.password

        questions: list[dict[str, Any]] | None | Unset
        if isinstance(self.questions, Unset):
            questions = UNSET
        elif isinstance(self.questions, list):
            questions = []
            for questions_type_0_item_data in self.questions:
                questions_type_0_item: dict[str, Any]
                if isinstance(questions_type_0_item_data, LiveQuizRoomOptionsQuestionsType0ItemType0):
                    questions_type_0_item = questions_type_0_item_data.to_dict()
                elif isinstance(questions_type_0_item_data, LiveQuizRoomOptionsQuestionsType0ItemType1):
                    questions_type_0_item = questions_type_0_item_data.to_dict()
                elif isinstance(questions_type_0_item_data, LiveQuizRoomOptionsQuestionsType0ItemType2):
                    questions_type_0_item = questions_type_0_item_data.to_dict()
                elif isinstance(questions_type_0_item_data, LiveQuizRoomOptionsQuestionsType0ItemType3):
                    questions_type_0_item = questions_type_0_item_data.to_dict()
                else:
                    questions_type_0_item = questions_type_0_item_data.to_dict()

                questions.append(questions_type_0_item)


        else:
            questions = self.questions


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "bonus": bonus,
            "deviceId": device_id,
            "password": password,
        })
        if questions is not UNSET:
            field_dict["questions"] = questions

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.live_quiz_room_options_questions_type_0_item_type_0 import LiveQuizRoomOptionsQuestionsType0ItemType0 # noqa: PLC0415
        from ..models.live_quiz_room_options_questions_type_0_item_type_1 import LiveQuizRoomOptionsQuestionsType0ItemType1 # noqa: PLC0415
        from ..models.live_quiz_room_options_questions_type_0_item_type_2 import LiveQuizRoomOptionsQuestionsType0ItemType2 # noqa: PLC0415
        from ..models.live_quiz_room_options_questions_type_0_item_type_3 import LiveQuizRoomOptionsQuestionsType0ItemType3 # noqa: PLC0415
        from ..models.live_quiz_room_options_questions_type_0_item_type_4 import LiveQuizRoomOptionsQuestionsType0ItemType4 # noqa: PLC0415
        d = dict(src_dict)
        bonus = d.pop("bonus")

        device_id = d.pop("deviceId")

        password = d.pop("password")

        def _parse_questions(data: object) -> list[LiveQuizRoomOptionsQuestionsType0ItemType0 | LiveQuizRoomOptionsQuestionsType0ItemType1 | LiveQuizRoomOptionsQuestionsType0ItemType2 | LiveQuizRoomOptionsQuestionsType0ItemType3 | LiveQuizRoomOptionsQuestionsType0ItemType4] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                questions_type_0 = []
                _questions_type_0 = data
                for questions_type_0_item_data in (_questions_type_0):
                    def _parse_questions_type_0_item(data: object) -> LiveQuizRoomOptionsQuestionsType0ItemType0 | LiveQuizRoomOptionsQuestionsType0ItemType1 | LiveQuizRoomOptionsQuestionsType0ItemType2 | LiveQuizRoomOptionsQuestionsType0ItemType3 | LiveQuizRoomOptionsQuestionsType0ItemType4:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            questions_type_0_item_type_0 = LiveQuizRoomOptionsQuestionsType0ItemType0.from_dict(data)



                            return questions_type_0_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            questions_type_0_item_type_1 = LiveQuizRoomOptionsQuestionsType0ItemType1.from_dict(data)



                            return questions_type_0_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            questions_type_0_item_type_2 = LiveQuizRoomOptionsQuestionsType0ItemType2.from_dict(data)



                            return questions_type_0_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            questions_type_0_item_type_3 = LiveQuizRoomOptionsQuestionsType0ItemType3.from_dict(data)



                            return questions_type_0_item_type_3
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        questions_type_0_item_type_4 = LiveQuizRoomOptionsQuestionsType0ItemType4.from_dict(data)



                        return questions_type_0_item_type_4

                    questions_type_0_item = _parse_questions_type_0_item(questions_type_0_item_data)

                    questions_type_0.append(questions_type_0_item)

                return questions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[LiveQuizRoomOptionsQuestionsType0ItemType0 | LiveQuizRoomOptionsQuestionsType0ItemType1 | LiveQuizRoomOptionsQuestionsType0ItemType2 | LiveQuizRoomOptionsQuestionsType0ItemType3 | LiveQuizRoomOptionsQuestionsType0ItemType4] | None | Unset, data)

        questions = _parse_questions(d.pop("questions", UNSET))


        live_quiz_room_options = cls(
            bonus=bonus,
            device_id=device_id,
            password=password,
            questions=questions,
        )

        return live_quiz_room_options

