-- A headset is bound to at most one phone account per tenant: the primary
-- key decides concurrent binds.
CREATE TABLE headset_devices (
    tenant_id text        NOT NULL,
    device_id text        NOT NULL,
    owner     text        NOT NULL,
    bound_at  timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, device_id)
);
CREATE INDEX headset_devices_by_owner ON headset_devices (tenant_id, owner);

-- A device's live room: its stream and the latest moment its TTL allows.
CREATE TABLE headset_rooms (
    tenant_id  text        NOT NULL,
    room_id    bigint      NOT NULL,
    device_id  text        NOT NULL,
    title      text        NOT NULL,
    stream     text        NOT NULL,
    deadline   timestamptz NOT NULL,
    active     boolean     NOT NULL DEFAULT true,
    PRIMARY KEY (tenant_id, room_id),
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, room_id) ON DELETE CASCADE
);
-- One open room per device.
CREATE UNIQUE INDEX headset_rooms_one_per_device ON headset_rooms (tenant_id, device_id) WHERE active;
CREATE INDEX headset_rooms_by_stream ON headset_rooms (tenant_id, stream) WHERE active;

-- Intercom sessions handed out; a room's sessions end with it.
CREATE TABLE headset_intercom (
    tenant_id  text        NOT NULL,
    room_id    bigint      NOT NULL,
    speak_url  text        NOT NULL,
    listen_url text        NOT NULL,
    expires_at timestamptz NOT NULL,
    ended_at   timestamptz,
    created_at timestamptz NOT NULL,
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, room_id) ON DELETE CASCADE
);
CREATE INDEX headset_intercom_by_room ON headset_intercom (tenant_id, room_id);
