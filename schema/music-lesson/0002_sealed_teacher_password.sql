-- The booked teacher's password, sealed (AES-GCM, RoomServices.secrets), so
-- /room/query can give it again to the booking student, and only to them.
ALTER TABLE music_lessons ADD COLUMN teacher_password_sealed text;
