CREATE TABLE `mirror_queue` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`change_id` integer NOT NULL,
	`project_id` integer NOT NULL,
	`path` text NOT NULL,
	`op` text NOT NULL,
	`put` text,
	`level` integer NOT NULL,
	`release` text NOT NULL,
	`check_first` integer DEFAULT false NOT NULL,
	`done` integer DEFAULT false NOT NULL,
	`purge` integer DEFAULT false NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mirror_queue_path_idx` ON `mirror_queue` (`path`,`id`);--> statement-breakpoint
CREATE INDEX `mirror_queue_waiting_idx` ON `mirror_queue` (`project_id`,`done`,`level`);--> statement-breakpoint
CREATE INDEX `mirror_queue_change_idx` ON `mirror_queue` (`change_id`);--> statement-breakpoint
CREATE TABLE `mirror_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`location` text NOT NULL,
	`last_copied_at` integer
);
--> statement-breakpoint
CREATE TABLE `purge_queue` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`call` text NOT NULL,
	`delivery_id` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `purged_content` (
	`path` text PRIMARY KEY NOT NULL,
	`sha256` text NOT NULL
);
