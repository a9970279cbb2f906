import { type Migration } from 'kysely'
import * as m0001 from './0001_users_workspaces.ts'
import * as m0002 from './0002_sessions_tokens.ts'
import * as m0003 from './0003_rate_limits.ts'
import * as m0004 from './0004_invitations.ts'
import * as m0005 from './0005_contacts_labels.ts'
import * as m0006 from './0006_contacts_search_per_workspace.ts'
import * as m0007 from './0007_contact_counts.ts'
import * as m0008 from './0008_contact_search.ts'
import * as m0009 from './0009_canned_responses.ts'
import * as m0010 from './0010_inbox.ts'
import * as m0011 from './0011_conversation_counts_and_search.ts'
import * as m0012 from './0012_inbox_plan_indexes.ts'
import * as m0013 from './0013_conversation_words.ts'
import * as m0014 from './0014_message_templates.ts'
import * as m0015 from './0015_messages_by_channel_day.ts'
import * as m0016 from './0016_channel_failures.ts'
import * as m0017 from './0017_attachments.ts'
import * as m0018 from './0018_campaigns.ts'
import * as m0019 from './0019_channel_campaign_rate.ts'
import * as m0020 from './0020_reports.ts'
import * as m0021 from './0021_audit_log.ts'
import * as m0022 from './0022_two_factor.ts'
import * as m0023 from './0023_report_spans.ts'
import * as m0024 from './0024_report_versions.ts'
import * as m0025 from './0025_visitor_email_claims.ts'
import * as m0026 from './0026_released_channel_slugs.ts'
import * as m0028 from './0028_workspace_country.ts'
import * as m0029 from './0029_workspace_event_numbers.ts'
import * as m0027 from './0027_session_second_factor.ts'
import * as m0030 from './0030_teams.ts'
import * as m0031 from './0031_presence_and_queue_waits.ts'
import * as m0032 from './0032_report_teams.ts'
import * as m0033 from './0033_automation_rules.ts'
import * as m0034 from './0034_business_hours.ts'
import * as m0035 from './0035_satisfaction.ts'
import * as m0036 from './0036_link_away_message.ts'
import * as m0037 from './0037_report_business_hours.ts'
import * as m0038 from './0038_notifications.ts'
import * as m0039 from './0039_access_tokens.ts'
import * as m0040 from './0040_webhooks.ts'
import * as m0041 from './0041_api_channel.ts'
import * as m0042 from './0042_contact_label_webhooks.ts'

// Listed by hand (not read from disk) so the bundled production server carries them.
export const migrations: Record<string, Migration> = {
	'0001_users_workspaces': m0001,
	'0002_sessions_tokens': m0002,
	'0003_rate_limits': m0003,
	'0004_invitations': m0004,
	'0005_contacts_labels': m0005,
	'0006_contacts_search_per_workspace': m0006,
	'0007_contact_counts': m0007,
	'0008_contact_search': m0008,
	'0009_canned_responses': m0009,
	'0010_inbox': m0010,
	'0011_conversation_counts_and_search': m0011,
	'0012_inbox_plan_indexes': m0012,
	'0013_conversation_words': m0013,
	'0014_message_templates': m0014,
	'0015_messages_by_channel_day': m0015,
	'0016_channel_failures': m0016,
	'0017_attachments': m0017,
	'0018_campaigns': m0018,
	'0019_channel_campaign_rate': m0019,
	'0020_reports': m0020,
	'0021_audit_log': m0021,
	'0022_two_factor': m0022,
	'0023_report_spans': m0023,
	'0024_report_versions': m0024,
	'0025_visitor_email_claims': m0025,
	'0026_released_channel_slugs': m0026,
	'0027_session_second_factor': m0027,
	'0028_workspace_country': m0028,
	'0029_workspace_event_numbers': m0029,
	'0030_teams': m0030,
	'0031_presence_and_queue_waits': m0031,
	'0032_report_teams': m0032,
	'0033_automation_rules': m0033,
	'0034_business_hours': m0034,
	'0035_satisfaction': m0035,
	'0036_link_away_message': m0036,
	'0037_report_business_hours': m0037,
	'0038_notifications': m0038,
	'0039_access_tokens': m0039,
	'0040_webhooks': m0040,
	'0041_api_channel': m0041,
	'0042_contact_label_webhooks': m0042,
}
