Pod::Spec.new do |s|
  s.name = 'QCloudCOSXML'
  s.version = "5.9.#{1 + 1}"
  s.dependency 'QCloudCore', '~> 1.0', '>= 1.0.1'
  s.dependency "AFNetworking", %q{>= 4}
  s.subspec 'Transfer' do |t|
    t.dependency 'QCloudCore/Base'
  end
  s.description = <<-DESC
    heredoc #{s.name}
  DESC
end
