import { migration0001 } from './0001_settings.js';
import { migration0002 } from './0002_actor_fences.js';
import { migration0003 } from './0003_rooms.js';
import { migration0004 } from './0004_actor_commands.js';
import { migration0005 } from './0005_accounts.js';
import { migration0006 } from './0006_room_index.js';
import { migration0007 } from './0007_notifications.js';
import { migration0008 } from './0008_live_stream_keys.js';
import { migration0009 } from './0009_oauth2_binding_issuer.js';
import { migration0010 } from './0010_stream_key_holders.js';
import { migration0012 } from './0012_media_seekable.js';
import { migration0013 } from './0013_media_libraries.js';
import { migration0014 } from './0014_subtitle_files.js';
import { migration0015 } from './0015_room_polls.js';
import { migration0016 } from './0016_reactions_and_danmaku.js';
import { migration0017 } from './0017_profiles.js';
import { migration0018 } from './0018_chat_threads.js';
import { migration0020 } from './0020_member_permissions.js';
import { migration0021 } from './0021_playlist_folders.js';
import { migration0022 } from './0022_room_emotes.js';
import { migration0023 } from './0023_media_reach.js';
import { migration0024 } from './0024_library_transcoder.js';
import type { Migration } from './types.js';

export type { Migration };

/** Every migration this binary knows, in the order they run. Append only; never edit a shipped one. */
export const migrations: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004, migration0005, migration0006, migration0007, migration0008, migration0009, migration0010, migration0012, migration0013, migration0014, migration0015, migration0016, migration0017, migration0018, migration0020, migration0021, migration0022, migration0023, migration0024];
