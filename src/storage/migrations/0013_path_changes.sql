CREATE TABLE `path_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`sequence` integer NOT NULL,
	`kind` text NOT NULL,
	`change` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `path_changes_project_sequence_idx` ON `path_changes` (`project_id`,`sequence`);--> statement-breakpoint
CREATE TABLE `publish_target_cursors` (
	`target` text PRIMARY KEY NOT NULL,
	`last_change_id` integer NOT NULL,
	`updated_at` integer NOT NULL
);
